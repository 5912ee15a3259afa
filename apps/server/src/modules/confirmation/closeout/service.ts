import {
  checkEligibility,
  ErrorCode,
  OPENING_ACTION_LABEL,
  openingProposal,
  type ApplyOpeningCheck,
  type OpeningCheckItem,
  fromStatesOf,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { CandidateRow } from '../../access/accounts/repository';
import type { Lifecycle } from '../../registration/applications/lifecycle';
import type { ApplicationsRepository } from '../../registration/applications/repository';
import { eligibilityProfile } from '../../registration/applications/service';
import type { AuditService } from '../../platform/audit/service';
import type { PositionLookup } from '../../content/positions/lookup';
import type { ExamLookup } from '../../content/exams/lookup';
import type { ExamsService } from '../../content/exams/service';
import type { NotificationsService } from '../../messages/notifications/service';
import type { PaymentsService } from '../payments/service';
import { parseRequirements } from '../../content/positions/service';
import { officeAdminScope } from '../../access/scope';
import type { CloseoutRepository } from './repository';

export interface CloseoutDeps {
  repo: CloseoutRepository;
  applications: ApplicationsRepository;
  lifecycle: Lifecycle;
  exams: ExamsService;
  /** An exam of the office, drafts too (the exams' one lookup). */
  examLookup: Pick<ExamLookup, 'require'>;
  payments: PaymentsService;
  audit: AuditService;
  positions: PositionLookup;
  /** The messages of a cancelled position's candidates, written with the cancellation. */
  notifications: Pick<NotificationsService, 'stepToAudience'>;
  commit<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  changed(officeId: number): Promise<void>;
  findCandidate(officeId: number, id: number): Promise<Pick<CandidateRow, 'birthday' | 'sex'> | undefined>;
}

/**
 * Close-out after confirmation: each position's confirmed candidates against the exam's opening
 * ratio, staff decisions (keep, reduce the headcount, cancel) applied in one transaction, and for
 * candidates of a cancelled position a switch to another position inside the switch window, or a
 * refund; whoever does neither is refunded when the window closes.
 */
export function createCloseoutService(deps: CloseoutDeps) {
  const { repo, applications, lifecycle, exams, examLookup, payments, audit, positions } = deps;

  async function switchState(officeId: number, candidateId: number, examId: number) {
    const exam = await exams.get(officeId, examId);
    const app = await applications.findByCandidate(officeId, examId, candidateId);
    if (!app) throw new AppError(ErrorCode.Validation, '您还没有报名该考试');
    const position = app.position_id === null ? undefined : await repo.position(officeId, app.position_id);
    const now = clock.nowIso();
    const open = exam.switchStart !== null && exam.switchEnd !== null && now >= exam.switchStart && now <= exam.switchEnd;
    return { exam, app, switching: open && position?.cancelled_at != null };
  }

  return {
    async check(staff: StaffPrincipal, examId: number) {
      officeAdminScope(staff);
      const exam = await examLookup.require(staff.officeId, examId);
      const rows = await repo.positionsWithConfirmed(staff.officeId, examId);
      const positions: OpeningCheckItem[] = rows.map((r) => {
        const confirmed = Number(r.confirmed ?? 0);
        const cancelled = r.cancelled_at !== null;
        const p = cancelled
          ? { proposal: 'cancel' as const, proposedHeadcount: 0 }
          : openingProposal(r.headcount, confirmed, exam.opening_ratio);
        return { positionId: r.id, code: r.code, name: r.name, unit: r.unit, headcount: r.headcount, confirmed, cancelled, ...p };
      });
      return { openingRatio: exam.opening_ratio, switchStart: exam.switch_start, switchEnd: exam.switch_end, positions };
    },

    async apply(
      staff: StaffPrincipal,
      input: ApplyOpeningCheck,
      ip: string,
    ): Promise<{ kept: number; reduced: number; cancelled: number }> {
      officeAdminScope(staff);
      const exam = await examLookup.require(staff.officeId, input.examId);
      const now = clock.nowIso();
      if (now <= exam.confirmation_end) throw new AppError(ErrorCode.Validation, '报名确认截止后才能核定开考岗位');
      const cancels = input.decisions.some((d) => d.action === 'cancel');
      if (cancels && (exam.switch_start === null || exam.switch_end === null))
        throw new AppError(ErrorCode.Validation, '取消岗位前请先在考试设置中填写改报时间');
      if (cancels && exam.switch_end !== null && now > exam.switch_end)
        throw new AppError(ErrorCode.Validation, '改报期已结束，不能再取消岗位');
      const counts = { kept: 0, reduced: 0, cancelled: 0 };
      await deps.commit(async (trx) => {
        for (const d of input.decisions) {
          const p = await positions.require(staff.officeId, input.examId, d.positionId, trx);
          if (p.cancelled_at !== null && d.action !== 'cancel') throw new AppError(ErrorCode.Validation, `岗位 ${p.code} 已取消，不能恢复`);
          if (d.action === 'keep') {
            counts.kept += 1;
            continue;
          }
          if (d.action === 'reduce') {
            if (d.headcount >= p.headcount)
              throw new AppError(ErrorCode.Validation, `岗位 ${p.code} 核减后的人数应少于原计划 ${p.headcount} 人`);
            await repo.setHeadcount(trx, p.id, d.headcount, now);
            counts.reduced += 1;
          } else {
            if (p.cancelled_at !== null) continue;
            await repo.cancel(trx, p.id, now);
            counts.cancelled += 1;
            // Its confirmed candidates learn it with the switch window they have to act in; only
            // those who paid are told of a refund (a waived or free candidate paid nothing).
            for (const paid of [true, false]) {
              await deps.notifications.stepToAudience(trx, {
                officeId: staff.officeId,
                examId: input.examId,
                audience: { statuses: fromStatesOf('closeOut'), positionId: p.id, paid },
                kind: 'position_cancelled',
                detail: `${p.code} ${p.name}`,
                note: paid ? '已缴报名费将原路退还' : undefined,
                until: exam.switch_end === null ? undefined : { to: exam.switch_end },
                at: now,
              });
            }
          }
          const detail = d.action === 'reduce' ? `${p.code} ${p.name}：${p.headcount} 人核减为 ${d.headcount} 人` : `${p.code} ${p.name}`;
          await audit.record(staff, OPENING_ACTION_LABEL[d.action], `position:${p.id}`, detail, ip, trx);
        }
      });
      await deps.changed(staff.officeId);
      return counts;
    },

    /** 改报: to another position of the exam the candidate is eligible for; the payment stays with the application. */
    async switchPosition(officeId: number, candidateId: number, examId: number, positionId: number, timeZone: string): Promise<void> {
      const { app, switching } = await switchState(officeId, candidateId, examId);
      const target = await positions.require(officeId, examId, positionId);
      if (target.cancelled_at !== null) throw new AppError(ErrorCode.Validation, '该岗位已取消，请选择其他岗位');
      if (target.id === app.position_id) throw new AppError(ErrorCode.Validation, '请选择其他岗位');
      const candidate = await deps.findCandidate(officeId, candidateId);
      if (!candidate) throw new AppError(ErrorCode.Unauthorized);
      const { eligible, reasons } = checkEligibility(
        parseRequirements(target.requirements),
        eligibilityProfile(candidate, app.form),
        clock.today(timeZone),
      );
      if (!eligible) throw new AppError(ErrorCode.Validation, `不符合该岗位的报考条件：${reasons.join('；')}`);
      await lifecycle.fire({
        officeId,
        application: app,
        event: 'switch',
        actor: { kind: 'candidate', id: candidateId },
        reason: `改报 ${target.code} ${target.name}`,
        facts: { switching },
        also: (trx) => repo.movePosition(trx, app.id, target.id, clock.nowIso()),
      });
    },

    /** 放弃并退费: the application is cancelled and its fee refunded, once. */
    async optOut(officeId: number, candidateId: number, examId: number): Promise<void> {
      const { app, switching } = await switchState(officeId, candidateId, examId);
      let refund: number | null = null;
      await lifecycle.fire({
        officeId,
        application: app,
        event: 'optOut',
        actor: { kind: 'candidate', id: candidateId },
        reason: '岗位取消，考生选择退费',
        facts: { switching },
        also: async (trx) => {
          refund = await payments.refundIn(trx, app.id, '岗位取消，考生选择退费');
        },
      });
      if (refund !== null) await payments.processRefund(refund);
    },

    /** After a switch window: whoever neither switched nor opted out is cancelled and refunded. */
    async closeSwitchWindows(): Promise<number> {
      let closed = 0;
      for (const a of await repo.stranded(clock.nowIso(), 500)) {
        let refund: number | null = null;
        const r = await lifecycle
          .fire({
            officeId: a.office_id,
            application: { id: a.id, exam_id: a.exam_id, status: a.status },
            event: 'closeOut',
            actor: { kind: 'system' },
            reason: '岗位取消，改报期内未改报，退还报名费',
            also: async (trx) => {
              refund = await payments.refundIn(trx, a.id, '岗位取消，退还报名费');
            },
          })
          .catch(() => ({ changed: false }));
        if (r.changed) closed += 1;
        if (refund !== null) await payments.processRefund(refund);
      }
      return closed;
    },
  };
}
