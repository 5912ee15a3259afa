import {
  addDays,
  ErrorCode,
  fenToYuan,
  ORDER_STATUS_LABEL,
  PAYMENT_PROVIDER_LABEL,
  zonedDateTimeSeconds,
  zonedDay,
  zonedToInstant,
  type OrderStatus,
  type PaymentList,
  type PaymentProviderName,
  type Reconciliation,
  fromStatesOf,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { Lifecycle } from '../../registration/applications/lifecycle';
import type { AuditService } from '../../platform/audit/service';
import { applicationScope, officeAdminScope } from '../../access/scope';
import type { PaymentProvider } from './providers/types';
import type { PaymentsRepository } from './repository';
import type { PaymentsService } from './service';
import { parseStatement, StatementError } from './statements';
import { requireApplication } from '../../registration/applications/lookup';

export interface PaymentsAdminDeps {
  repo: PaymentsRepository;
  payments: PaymentsService;
  lifecycle: Lifecycle;
  audit: AuditService;
  providers: ReadonlyMap<PaymentProviderName, PaymentProvider>;
}

const nextDay = (day: string): string => addDays(day, 1);

/** The console's side of payments: the list with totals, the export, refunds, events and reconciliation. */
export function createPaymentsAdminService({ repo, payments, lifecycle, audit, providers }: PaymentsAdminDeps) {
  return {
    async list(
      staff: StaffPrincipal,
      q: { examId: number; status?: OrderStatus | undefined; page: number; pageSize: number },
    ): Promise<PaymentList> {
      const { rows, total, sum } = await repo.list(applicationScope(staff), q, q.page, q.pageSize);
      return {
        total,
        sum,
        list: rows.map((r) => ({
          orderNo: r.order_no,
          applicationId: r.application_id,
          name: r.name,
          positionName: r.position_name ?? '',
          unit: r.unit ?? '',
          provider: r.provider,
          amount: r.amount,
          status: r.status,
          tradeNo: r.trade_no,
          createdAt: r.created_at,
          paidAt: r.paid_at,
          refundedAt: r.refunded_at,
          note: r.note,
        })),
      };
    },

    async export(
      staff: StaffPrincipal,
      q: { examId: number; status?: OrderStatus | undefined },
      timeZone: string,
      ip: string,
    ): Promise<Buffer> {
      const rows = await repo.all(applicationScope(staff), q);
      const book = new ExcelJS.Workbook();
      book.creator = '智考云';
      const sheet = book.addWorksheet('缴费记录');
      sheet.columns = [
        { header: '订单号', key: 'orderNo', width: 30 },
        { header: '姓名', key: 'name', width: 12 },
        { header: '报考单位', key: 'unit', width: 28 },
        { header: '报考岗位', key: 'position', width: 20 },
        { header: '支付渠道', key: 'provider', width: 12 },
        { header: '金额（元）', key: 'amount', width: 12 },
        { header: '状态', key: 'status', width: 10 },
        { header: '渠道交易号', key: 'tradeNo', width: 32 },
        { header: '下单时间', key: 'createdAt', width: 20 },
        { header: '支付时间', key: 'paidAt', width: 20 },
        { header: '退款时间', key: 'refundedAt', width: 20 },
        { header: '备注', key: 'note', width: 30 },
      ];
      let sum = 0;
      for (const r of rows) {
        if (r.status === 'paid') sum += r.amount;
        sheet.addRow({
          orderNo: r.order_no,
          name: r.name,
          unit: r.unit ?? '',
          position: r.position_name ?? '',
          provider: PAYMENT_PROVIDER_LABEL[r.provider],
          // Yuan as exact text: a float cell could show 49.999999.
          amount: fenToYuan(r.amount),
          status: ORDER_STATUS_LABEL[r.status],
          tradeNo: r.trade_no ?? '',
          createdAt: zonedDateTimeSeconds(r.created_at, timeZone),
          paidAt: r.paid_at ? zonedDateTimeSeconds(r.paid_at, timeZone) : '',
          refundedAt: r.refunded_at ? zonedDateTimeSeconds(r.refunded_at, timeZone) : '',
          note: r.note,
        });
      }
      sheet.addRow({ orderNo: '已支付合计', amount: fenToYuan(sum) });
      sheet.getRow(1).font = { bold: true };
      await audit.record(staff, '导出缴费记录', `exam:${q.examId}`, `${rows.length} 条`, ip);
      return Buffer.from(await book.xlsx.writeBuffer());
    },

    /** Staff refund a paid order: a confirmed application is cancelled with it; refunded once, audited. */
    async refund(staff: StaffPrincipal, orderNo: string, reason: string, ip: string): Promise<void> {
      officeAdminScope(staff);
      const order = await repo.byOrderNo(orderNo);
      if (!order || order.office_id !== staff.officeId) throw notFound('order');
      if (order.status === 'refunding' || order.status === 'refunded') {
        await payments.processRefund(order.id);
        return;
      }
      if (order.status !== 'paid') throw new AppError(ErrorCode.Validation, '只有已支付的订单可以退费');
      const actor = { kind: 'staff' as const, id: staff.id, officeId: staff.officeId, name: staff.name, role: staff.role, ip };
      const application = requireApplication(await repo.commit((trx) => repo.applicationIn(trx, order.application_id)));
      const decide = async (trx: Parameters<Parameters<PaymentsRepository['commit']>[0]>[0]) => {
        const id = await payments.refundIn(trx, order.application_id, reason);
        if (id === null) throw new AppError(ErrorCode.Validation, '该订单已在退费中，请刷新后再试');
        await audit.record(staff, '退费', `payment:${orderNo}`, `${fenToYuan(order.amount)} 元：${reason}`, ip, trx);
      };
      if (fromStatesOf('cancel').includes(application.status)) {
        // The fee is what confirmed the application: refunding it cancels the application too.
        await lifecycle.fire({
          officeId: staff.officeId,
          application,
          event: 'cancel',
          actor,
          reason,
          auditNote: `退费 ${orderNo}`,
          also: decide,
        });
      } else {
        await repo.commit(decide);
      }
      await payments.processRefund(order.id);
    },

    async events(staff: StaffPrincipal, examId: number) {
      const rows = await repo.events(applicationScope(staff), examId);
      return rows.map((r) => ({ id: r.id, provider: r.provider, orderNo: r.order_no, kind: r.kind, detail: r.detail, at: r.at }));
    },

    /** Compares a provider's statement with our books for the days it covers. */
    async reconcile(staff: StaffPrincipal, file: Buffer, timeZone: string, ip: string): Promise<Reconciliation> {
      officeAdminScope(staff);
      let parsed;
      try {
        parsed = parseStatement(file);
      } catch (err) {
        if (err instanceof StatementError) throw new AppError(ErrorCode.Validation, err.message);
        throw err;
      }
      const { provider, lines } = parsed;
      const days = lines.map((l) => zonedDay(l.paidAt, timeZone)).sort();
      const result: Reconciliation = {
        provider,
        lines: lines.length,
        matched: 0,
        missingHere: [],
        missingThere: [],
        amountMismatch: [],
        days: [],
      };
      if (lines.length === 0) return result;
      const from = zonedToInstant(`${days[0]!}T00:00`, timeZone);
      const to = zonedToInstant(`${nextDay(days[days.length - 1]!)}T00:00`, timeZone);
      const ours = await repo.paidBetween(staff.officeId, provider, from, to);
      const known = new Map((await repo.byOrderNos(lines.map((l) => l.orderNo))).map((o) => [o.order_no, o]));
      const perDay = new Map<string, Reconciliation['days'][number]>();
      const day = (d: string) => {
        let e = perDay.get(d);
        if (!e) perDay.set(d, (e = { date: d, statementCount: 0, statementSum: 0, ourCount: 0, ourSum: 0 }));
        return e;
      };
      const listed = new Set<string>();
      for (const l of lines) {
        const o = known.get(l.orderNo);
        // Another office's order, or none of ours (a merchant account may serve more than this system).
        if (!o || o.office_id !== staff.officeId) continue;
        listed.add(l.orderNo);
        const d = day(zonedDay(l.paidAt, timeZone));
        d.statementCount += 1;
        d.statementSum += l.amount;
        if (o.status === 'unpaid' || o.status === 'closed') result.missingHere.push(l);
        else if (o.amount !== l.amount) result.amountMismatch.push({ orderNo: l.orderNo, ours: o.amount, theirs: l.amount });
        else result.matched += 1;
      }
      for (const o of ours) {
        const d = day(zonedDay(o.paid_at ?? from, timeZone));
        d.ourCount += 1;
        d.ourSum += o.amount;
        if (!listed.has(o.order_no)) result.missingThere.push({ orderNo: o.order_no, amount: o.amount, paidAt: o.paid_at });
      }
      result.days = [...perDay.values()].sort((a, b) => a.date.localeCompare(b.date));
      await audit.record(
        staff,
        '上传对账单',
        `statement:${provider}`,
        `${lines.length} 笔，待补记 ${result.missingHere.length}，本地多出 ${result.missingThere.length}`,
        ip,
      );
      return result;
    },

    /** 补记: a payment the statement shows and we lack, applied after the provider confirms it (a file is not evidence). */
    async applyStatementLine(staff: StaffPrincipal, provider: PaymentProviderName, orderNo: string, ip: string): Promise<void> {
      officeAdminScope(staff);
      const order = await repo.byOrderNo(orderNo);
      if (!order || order.office_id !== staff.officeId || order.provider !== provider) throw notFound('order');
      if (order.status !== 'unpaid' && order.status !== 'closed') throw new AppError(ErrorCode.Validation, '该订单已入账，无需补记');
      const p = providers.get(provider);
      if (!p) throw new AppError(ErrorCode.Validation, '支付渠道未配置');
      const there = await p.query(orderNo);
      if (there.state !== 'paid') throw new AppError(ErrorCode.Validation, '支付渠道查询该订单未支付，不能补记');
      if (there.amount !== order.amount) throw new AppError(ErrorCode.Validation, '支付渠道查询的金额与订单不符，请联系支付渠道核实');
      const outcome = await payments.recordPaid(
        order,
        { tradeNo: there.tradeNo ?? '', paidAt: there.paidAt ?? clock.nowIso() },
        'statement',
      );
      await audit.record(
        staff,
        '对账补记',
        `payment:${orderNo}`,
        `${fenToYuan(order.amount)} 元（${outcome === 'confirmed' ? '已确认报名' : outcome === 'refund' ? '已转退款' : '已入账'}）`,
        ip,
      );
    },
  };
}
