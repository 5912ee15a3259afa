import {
  APPLICATION_STATUS_LABEL,
  ErrorCode,
  FORM_FIELD_LABEL,
  isValidIdno,
  maskIdno,
  maskMobile,
  type ApplicationStatus,
  type FormField,
  type ReviewDetail,
  type ReviewItem,
  type Statistics,
} from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error';
import { dataUrl } from '../../lib/data-url';
import type { AccountsRepository } from '../accounts/repository';
import type { DataCipher } from '../../lib/crypto';
import type { StaffPrincipal } from '../../plugins/auth';
import type { ApplicationsRepository } from '../applications/repository';
import { parseForm, type ApplicationsService } from '../applications/service';
import type { AuditService } from '../audit/service';
import type { ReviewFilter, ReviewRepository } from './repository';

type Row = Awaited<ReturnType<ReviewRepository['page']>>['rows'][number];

export interface ReviewQuery {
  examId: number;
  status?: ApplicationStatus | undefined;
  unit?: string | undefined;
  positionId?: number | undefined;
  keyword?: string | undefined;
  page: number;
  pageSize: number;
}

export interface ReviewDeps {
  repo: ReviewRepository;
  findPhoto: AccountsRepository['findPhoto'];
  applications: ApplicationsService;
  applicationsRepo: ApplicationsRepository;
  cipher: DataCipher;
  audit: AuditService;
}

/** China time, as offices count their days. */
function chinaDate(iso: string): string {
  return new Date(Date.parse(iso) + 8 * 3600_000).toISOString().slice(0, 10);
}

export function createReviewService({ repo, findPhoto, applications, applicationsRepo, cipher, audit }: ReviewDeps) {
  function filter(staff: StaffPrincipal, q: Omit<ReviewQuery, 'page' | 'pageSize'>): ReviewFilter {
    const keyword = q.keyword?.trim();
    // An ID number is found by its blind index: the database holds no plain ID number to search.
    const idnoIndex = keyword && isValidIdno(keyword) ? cipher.blindIndex('idno', keyword.toUpperCase()) : undefined;
    return {
      examId: q.examId,
      status: q.status,
      unit: q.unit,
      positionId: q.positionId,
      keyword,
      idnoIndex,
      units: staff.role === 'reviewer' ? staff.units : [],
    };
  }

  function item(r: Row): ReviewItem {
    return {
      id: r.id,
      name: r.name,
      idnoMasked: maskIdno(cipher.decrypt(r.idno_enc)),
      mobileMasked: maskMobile(r.mobile),
      sex: r.sex,
      birthday: r.birthday,
      positionId: r.position_id,
      positionCode: r.position_code ?? '',
      positionName: r.position_name ?? '',
      unit: r.unit ?? '',
      status: r.status as ApplicationStatus,
      reason: r.reason,
      submittedAt: r.submitted_at,
    };
  }

  async function reviewable(staff: StaffPrincipal, id: number) {
    const row = await repo.detail(staff.officeId, id);
    if (!row) throw new AppError(ErrorCode.NotFound, '该报名不存在');
    if (staff.role === 'reviewer' && staff.units.length > 0 && !staff.units.includes(row.unit ?? '')) {
      throw new AppError(ErrorCode.Forbidden, '该报名不属于您负责审核的单位');
    }
    return row;
  }

  return {
    async list(staff: StaffPrincipal, q: ReviewQuery): Promise<{ list: ReviewItem[]; total: number }> {
      const { rows, total } = await repo.page(staff.officeId, filter(staff, q), (q.page - 1) * q.pageSize, q.pageSize);
      return { list: rows.map(item), total };
    },

    async detail(staff: StaffPrincipal, id: number, ip: string): Promise<ReviewDetail> {
      const row = await reviewable(staff, id);
      let photo = '';
      if (row.photo_id !== null) {
        const p = await findPhoto(staff.officeId, row.photo_id);
        if (p) photo = dataUrl(p.mime, p.data);
      }
      const history = (await applicationsRepo.history(row.id)).map((h) => ({
        status: h.status as ApplicationStatus,
        reason: h.reason,
        actor: h.actor === 'staff' ? ('staff' as const) : ('candidate' as const),
        at: h.at,
      }));
      // Opening a full record (ID number, photo) is itself an action worth recording.
      await audit.record({ id: staff.id, officeId: staff.officeId, name: staff.name }, '查看报名', `application:${row.id}`, '', ip);
      return {
        ...item(row),
        idno: cipher.decrypt(row.idno_enc),
        mobile: row.mobile,
        email: row.email,
        photo,
        form: parseForm(row.form),
        history,
      };
    },

    async decide(staff: StaffPrincipal, id: number, decision: 'approve' | 'reject', reason: string, ip: string): Promise<void> {
      await reviewable(staff, id);
      const changed = await applications.review(staff.officeId, id, decision, reason, staff.id);
      if (!changed) throw new AppError(ErrorCode.Validation, '该报名不在待审核状态（可能已被审核或已撤回），请刷新后再试');
      await audit.record(
        { id: staff.id, officeId: staff.officeId, name: staff.name },
        decision === 'approve' ? '审核通过' : '审核不通过',
        `application:${id}`,
        reason,
        ip,
      );
    },

    async bulkApprove(staff: StaffPrincipal, ids: number[], ip: string): Promise<{ approved: number; skipped: number }> {
      let approved = 0;
      for (const id of new Set(ids)) {
        const row = await repo.detail(staff.officeId, id);
        if (!row || (staff.role === 'reviewer' && staff.units.length > 0 && !staff.units.includes(row.unit ?? ''))) continue;
        if (await applications.review(staff.officeId, id, 'approve', '', staff.id)) approved += 1;
      }
      await audit.record(
        { id: staff.id, officeId: staff.officeId, name: staff.name },
        '批量审核通过',
        `applications:${ids.length}`,
        `通过 ${approved} 条`,
        ip,
      );
      return { approved, skipped: new Set(ids).size - approved };
    },

    async statistics(staff: StaffPrincipal, examId: number): Promise<Statistics> {
      const [counts, statuses, times] = await Promise.all([
        repo.positionCounts(staff.officeId, examId),
        repo.statusCounts(staff.officeId, examId),
        repo.submittedTimes(staff.officeId, examId),
      ]);
      const byPosition = new Map<number, Statistics['positions'][number]>();
      for (const c of counts) {
        const p = byPosition.get(c.id) ?? {
          id: c.id,
          code: c.code,
          name: c.name,
          unit: c.unit,
          headcount: c.headcount,
          submitted: 0,
          approved: 0,
          rejected: 0,
          ratio: 0,
        };
        const n = Number(c.n);
        if (c.status === 'submitted') p.submitted += n;
        if (c.status === 'approved') p.approved += n;
        if (c.status === 'rejected') p.rejected += n;
        byPosition.set(c.id, p);
      }
      const positions = [...byPosition.values()].map((p) => ({
        ...p,
        ratio: p.headcount > 0 ? Math.round(((p.submitted + p.approved) / p.headcount) * 100) / 100 : 0,
      }));
      const totals = { draft: 0, submitted: 0, approved: 0, rejected: 0 };
      for (const s of statuses) if (s.status in totals) totals[s.status as keyof typeof totals] = Number(s.n);
      const perDay = new Map<string, number>();
      for (const t of times) if (t.submitted_at) perDay.set(chinaDate(t.submitted_at), (perDay.get(chinaDate(t.submitted_at)) ?? 0) + 1);
      return {
        totals,
        positions,
        emptyPositions: positions.filter((p) => p.submitted + p.approved + p.rejected === 0).length,
        perDay: [...perDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, count]) => ({ date, count })),
      };
    },

    /** The exam's applications as .xlsx; the full ID number only for admins, who need it for tickets. */
    async export(staff: StaffPrincipal, examId: number, ip: string): Promise<Buffer> {
      const rows = await repo.all(staff.officeId, filter(staff, { examId }));
      const book = new ExcelJS.Workbook();
      book.creator = '智考云';
      const sheet = book.addWorksheet('报名信息');
      const formFields: FormField[] = [
        'education',
        'degree',
        'school',
        'major',
        'graduationDate',
        'workYears',
        'politicalStatus',
        'contactPhone',
        'address',
      ];
      sheet.columns = [
        { header: '报名序号', key: 'id', width: 10 },
        { header: '姓名', key: 'name', width: 10 },
        { header: '性别', key: 'sex', width: 6 },
        { header: '出生日期', key: 'birthday', width: 12 },
        { header: '身份证号', key: 'idno', width: 22 },
        { header: '手机号码', key: 'mobile', width: 14 },
        { header: '岗位代码', key: 'code', width: 12 },
        { header: '岗位名称', key: 'position', width: 18 },
        { header: '招聘单位', key: 'unit', width: 26 },
        ...formFields.map((f) => ({ header: FORM_FIELD_LABEL[f], key: f, width: 14 })),
        { header: '审核状态', key: 'status', width: 10 },
        { header: '审核意见', key: 'reason', width: 30 },
        { header: '提交时间', key: 'submittedAt', width: 20 },
      ];
      sheet.getRow(1).font = { bold: true };
      for (const r of rows) {
        const idno = cipher.decrypt(r.idno_enc);
        const form = parseForm(r.form) as Record<string, unknown>;
        sheet.addRow({
          id: r.id,
          name: r.name,
          sex: r.sex,
          birthday: r.birthday,
          idno: staff.role === 'admin' ? idno : maskIdno(idno),
          mobile: staff.role === 'admin' ? r.mobile : maskMobile(r.mobile),
          code: r.position_code ?? '',
          position: r.position_name ?? '',
          unit: r.unit ?? '',
          ...Object.fromEntries(formFields.map((f) => [f, form[f] === undefined ? '' : String(form[f])])),
          status: APPLICATION_STATUS_LABEL[r.status as ApplicationStatus] ?? r.status,
          reason: r.reason,
          submittedAt: r.submitted_at
            ? new Date(Date.parse(r.submitted_at) + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ')
            : '',
        });
      }
      await audit.record(
        { id: staff.id, officeId: staff.officeId, name: staff.name },
        '导出报名',
        `exam:${examId}`,
        `${rows.length} 条`,
        ip,
      );
      return Buffer.from(await book.xlsx.writeBuffer());
    },
  };
}
