import {
  confirmingStepRefusal,
  ErrorCode,
  WAIVER_CATEGORY_LABEL,
  type WaiverCategory,
  type WaiverItem,
  type WaiverStatus,
} from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../../db/errors';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { Lifecycle } from '../../registration/applications/lifecycle';
import type { ApplicationsRepository } from '../../registration/applications/repository';
import type { AuditService } from '../../platform/audit/service';
import type { ExamsService } from '../../content/exams/service';
import type { NotificationsService } from '../../messages/notifications/service';
import type { PaymentsRepository } from '../payments/repository';
import { applicationScope, inScope } from '../../access/scope';
import { readProof } from './proof';
import type { WaiversRepository } from './repository';
import { requireApplication } from '../../registration/applications/lookup';

export interface WaiversDeps {
  repo: WaiversRepository;
  payments: PaymentsRepository;
  applications: ApplicationsRepository;
  lifecycle: Lifecycle;
  exams: ExamsService;
  audit: AuditService;
  /** The candidate's message of a refusal (an approval's goes with its confirmation, through the lifecycle). */
  notifications: Pick<NotificationsService, 'stepToApplication'>;
}

/**
 * Fee waivers: a candidate of an exam that waives their category asks, with proof, inside the
 * confirmation window; staff approve (the application is confirmed in the same transaction) or
 * reject with a reason (the candidate may still pay inside the window).
 */
export function createWaiversService({ repo, payments, applications, lifecycle, exams, audit, notifications }: WaiversDeps) {
  return {
    async apply(officeId: number, candidateId: number, examId: number, category: WaiverCategory, upload: Buffer): Promise<{ id: number }> {
      const exam = await exams.get(officeId, examId);
      const app = await applications.findByCandidate(officeId, examId, candidateId);
      if (!app) throw new AppError(ErrorCode.Validation, '您还没有报名该考试');
      const refusal = confirmingStepRefusal(
        app.status,
        'waive',
        { at: clock.nowIso(), deadline: exam.confirmationEnd, phase: exam.phase, fee: exam.fee },
        { done: '报名已确认，无需申请减免', notYet: '资格审查通过后才能申请减免' },
      );
      if (refusal) throw new AppError(ErrorCode.Validation, refusal);
      if (!exam.waiverCategories.includes(category))
        throw new AppError(ErrorCode.Validation, `本考试不受理「${WAIVER_CATEGORY_LABEL[category]}」的减免申请`);
      // Decoded and written again: what is stored is what it shows (a name or a type proves nothing).
      const { mime, data: proof } = await readProof(upload);
      const previous = await repo.latest(officeId, app.id);
      if (previous?.status === 'pending') throw new AppError(ErrorCode.Validation, '减免申请正在审核，请勿重复提交');
      if (previous?.status === 'approved') throw new AppError(ErrorCode.Validation, '减免申请已通过');
      if ((await payments.ordersOf(officeId, app.id)).some((o) => o.status === 'paid'))
        throw new AppError(ErrorCode.Validation, '报名费已缴纳，无需申请减免');
      try {
        const id = await repo.insert({ officeId, examId, applicationId: app.id, category, mime, proof, at: clock.nowIso() });
        return { id };
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(ErrorCode.Validation, '减免申请正在审核，请勿重复提交');
        throw err;
      }
    },

    async list(
      staff: StaffPrincipal,
      q: { examId: number; status?: WaiverStatus | undefined; page: number; pageSize: number },
    ): Promise<{ list: WaiverItem[]; total: number }> {
      const { rows, total } = await repo.list(applicationScope(staff), q, q.page, q.pageSize);
      return {
        total,
        list: rows.map((r) => ({
          id: r.id,
          applicationId: r.application_id,
          name: r.name,
          positionName: r.position_name ?? '',
          unit: r.unit ?? '',
          category: r.category,
          status: r.status,
          reason: r.reason,
          proofMime: r.proof_mime,
          createdAt: r.created_at,
          reviewedAt: r.reviewed_at,
        })),
      };
    },

    async proof(staff: StaffPrincipal, id: number, ip: string): Promise<{ mime: string; data: Buffer }> {
      const w = await repo.find(staff.officeId, id);
      if (!w || !inScope(applicationScope(staff), w.unit)) throw notFound('feeWaiver');
      const row = await repo.proof(staff.officeId, id);
      if (!row) throw notFound('feeWaiver');
      await audit.record(staff, '查看减免证明', `feeWaiver:${id}`, '', ip);
      return { mime: row.proof_mime, data: row.proof };
    },

    /** Approve (confirms the application in the same transaction) or reject with a reason; each decided once. */
    async review(staff: StaffPrincipal, id: number, decision: 'approve' | 'reject', reason: string, ip: string): Promise<void> {
      const w = await repo.find(staff.officeId, id);
      if (!w || !inScope(applicationScope(staff), w.unit)) throw notFound('feeWaiver');
      if (w.status !== 'pending') throw new AppError(ErrorCode.Validation, '该减免申请已审核，请刷新后再试');
      const label = WAIVER_CATEGORY_LABEL[w.category];
      const actor = { kind: 'staff' as const, id: staff.id, officeId: staff.officeId, name: staff.name, role: staff.role, ip };
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const outcome = await repo.commit(async (trx) => {
          const at = clock.nowIso();
          if (!(await repo.decide(trx, id, decision === 'approve' ? 'approved' : 'rejected', reason, staff.id, at)))
            throw new AppError(ErrorCode.Validation, '该减免申请已审核，请刷新后再试');
          if (decision === 'reject') {
            await audit.record(staff, '减免不通过', `feeWaiver:${id}`, `${label}：${reason}`, ip, trx);
            // The candidate may still pay: the message names the deadline while it is ahead.
            const deadline = await payments.deadlineOf(w.exam_id, trx);
            await notifications.stepToApplication(trx, {
              officeId: staff.officeId,
              applicationId: w.application_id,
              kind: 'waiver_decided',
              detail: `未通过，原因：${reason}`,
              until: deadline && deadline > at ? { to: deadline } : undefined,
              at,
            });
            return 'done';
          }
          const application = requireApplication(await payments.applicationIn(trx, w.application_id));
          const deadline = requireApplication(await payments.deadlineOf(w.exam_id, trx));
          const step = await lifecycle.fireIn(trx, {
            officeId: staff.officeId,
            application,
            event: 'waive',
            actor,
            reason: label,
            auditNote: `减免申请 ${id}`,
            facts: { at: w.created_at, deadline },
          });
          if (step.kind === 'raced') return 'raced';
          if (step.kind === 'refused') throw new AppError(step.why === 'actor' ? ErrorCode.Forbidden : ErrorCode.Validation, step.msg);
          if (step.kind === 'repeat') throw new AppError(ErrorCode.Validation, '该考生已完成确认（可能已缴费），无需减免');
          return 'done';
        });
        if (outcome === 'done') return;
      }
      throw new AppError(ErrorCode.Validation, '报名状态正在变化，请刷新后再试');
    },
  };
}
