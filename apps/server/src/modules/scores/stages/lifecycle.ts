import {
  auditTarget,
  canFireLater,
  ErrorCode,
  laterTransitionOf,
  type LaterEvent,
  type LaterStatus,
  type StaffRole,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB, StageResultTable } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { AuditService } from '../../platform/audit/service';
import type { StagesRepository } from './repository';

/** One application's step: the event, and the state the caller read it in (from the stored results and the ranks). */
export interface LaterStep {
  applicationId: number;
  /** Named in a refusal of a batch (准考证号). */
  ticketNo: string;
  from: LaterStatus;
  event: LaterEvent;
  /** The interview's mark and score in hundredths (`recordInterview`, `missInterview`). */
  mark?: { outcome: 'score' | 'absent' | 'void'; score: number | null };
}

/** The audit actions of the steps after confirmation (each one of the shared AUDIT_ACTIONS). */
export type LaterAuditAction = '记录资格复审结果' | '记录体检结果' | '导入面试成绩' | '重新导入面试成绩' | '记录放弃面试' | '面试递补';

interface LaterAudit {
  action: LaterAuditAction;
  detail: string;
}

export interface LaterFireInput {
  officeId: number;
  examId: number;
  actor: { id: number; officeId: number; name: string; role: StaffRole };
  ip: string;
  steps: readonly LaterStep[];
  /** The reason given (放弃面试), kept with the mark and in the history. */
  reason?: string;
  /**
   * One audit entry for the action (a batch of results or an import is one action), on the exam;
   * an import's words depend on how many earlier marks it replaced.
   */
  audit: LaterAudit | ((replaced: number) => LaterAudit);
  /** The interview import replaces the stage: the exam's earlier marks go first, in the same transaction. */
  replacesInterview?: boolean;
}

/**
 * The only code that writes the states after confirmation (stage_result, and score_total's 放弃
 * and 递补 marks on the interview list). Every step is judged by the declared machine
 * (packages/shared/src/later-stages-lifecycle.ts) from the state the caller read; one refused step
 * refuses the whole action with the machine's Chinese message and nothing is written. An allowed
 * action writes each step's record, its history row (later_history: event, from, to) and one
 * audit entry, in the caller's transaction, or none of them.
 */
export function createLaterLifecycle({ repo, audit }: { repo: StagesRepository; audit: AuditService }) {
  /** What each step leads to, or the first refusal. */
  function judge(input: LaterFireInput): LaterStatus[] {
    return input.steps.map((step) => {
      const verdict = canFireLater(step.from, step.event, input.actor.role);
      if (!verdict.ok) {
        const msg = input.steps.length > 1 ? `准考证号 ${step.ticketNo}：${verdict.msg}，未保存任何结果` : verdict.msg;
        throw new AppError(verdict.why === 'actor' ? ErrorCode.Forbidden : ErrorCode.Validation, msg);
      }
      return verdict.to;
    });
  }

  async function fireIn(trx: Kysely<DB>, input: LaterFireInput): Promise<void> {
    const to = judge(input);
    const { officeId, examId } = input;
    const reason = input.reason?.trim() ?? '';
    const at = clock.nowIso();
    const results: StageResultTable[] = [];
    const list = { gaveUp: [] as number[], filled: [] as number[] };
    for (const step of input.steps) {
      const records = laterTransitionOf(step.event).records;
      const base = { application_id: step.applicationId, office_id: officeId, exam_id: examId, updated_at: at };
      switch (records.kind) {
        case 'result':
          results.push({ ...base, stage: records.stage, outcome: records.outcome, score: null });
          break;
        case 'interview':
          if (!step.mark || !records.outcomes.includes(step.mark.outcome))
            throw new Error(`${step.event} needs an interview mark of ${records.outcomes.join('/')}`);
          results.push({ ...base, stage: 'interview', outcome: step.mark.outcome, score: step.mark.score });
          break;
        case 'list':
          list[records.mark].push(step.applicationId);
          break;
        case 'derived':
          // Follows from the published scores and the ranks: nothing of its own to store.
          throw new Error(`${step.event} is derived from the ranks, not written`);
      }
    }
    const replaced = input.replacesInterview ? await repo.clearStage(trx, examId, 'interview') : 0;
    await repo.saveResults(trx, results);
    await repo.markGaveUp(trx, list.gaveUp, at, reason);
    await repo.markFilled(trx, list.filled, at);
    await repo.addHistory(
      trx,
      input.steps.map((step, i) => ({
        application_id: step.applicationId,
        event: step.event,
        from_state: step.from,
        to_state: to[i]!,
        reason,
        actor_id: input.actor.id,
        at,
      })),
    );
    const entry = typeof input.audit === 'function' ? input.audit(replaced) : input.audit;
    await audit.record(input.actor, entry.action, auditTarget('exam', examId), entry.detail, input.ip, trx);
  }

  return {
    /** Steps that belong to a larger transaction the caller holds (read in it: 放弃面试, 递补). */
    fireIn,
    /** Steps in a transaction of their own (judged first, so a refusal opens none). */
    fire(input: LaterFireInput): Promise<void> {
      judge(input);
      return repo.commit((trx) => fireIn(trx, input));
    },
  };
}

export type LaterLifecycle = ReturnType<typeof createLaterLifecycle>;
