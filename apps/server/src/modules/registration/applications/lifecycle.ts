import {
  APPLICATION_STATES,
  canEdit,
  canFire,
  ErrorCode,
  examPhase,
  historyActor,
  INITIAL_STATUS,
  transitionOf,
  type ApplicationEvent,
  type ApplicationStatus,
  type ExamPhase,
  type LifecycleActor,
  type MessageParams,
  type LifecycleContext,
  type StaffRole,
  type Verdict,
} from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { requireApplication } from './lookup';
import { nowIso } from '../../../lib/clock';
import type { ExamLookup } from '../../content/exams/lookup';
import type { AuditService } from '../../platform/audit/service';
import type { ApplicationsRepository } from './repository';

/** Who fires an event, with what the history and the audit log need to name them. */
export type Actor =
  | { kind: 'candidate'; id: number }
  | { kind: 'staff'; id: number; officeId: number; name: string; role: StaffRole; ip: string }
  | { kind: 'system' };

export interface FireInput {
  officeId: number;
  /** The application as the caller read it: its status is what the lifecycle judges. */
  application: { id: number; exam_id: number; status: ApplicationStatus };
  event: ApplicationEvent;
  actor: Actor;
  reason?: string | undefined;
  /** The exam's phase, when the caller has just read the exam (else read here if a guard needs it). */
  phase?: ExamPhase | undefined;
  /** Added to the audit record's detail (e.g. that it was part of a bulk decision). */
  auditNote?: string | undefined;
  /**
   * The version of the form the actor judged (the candidate confirmed): the step is taken only
   * on that very form, else refused with `conflict`.
   */
  version?: { expected: number; conflict: string } | undefined;
  /** What the step's message to the candidate says beyond exam and reason (a position, a deadline). */
  messageParams?: Partial<MessageParams> | undefined;
  /** Facts the guards judge besides the phase: the fee, when a payment or waiver request happened, the deadline, the switch window. */
  facts?: Pick<LifecycleContext, 'fee' | 'at' | 'deadline' | 'switching'> | undefined;
  /** More writes that belong to the step, run in its transaction after the status moved (a switch's new position). */
  also?: ((trx: Kysely<DB>) => Promise<void>) | undefined;
}

/** A step that has just been written, as the hooks of `onTransition` see it. */
export interface TransitionFact {
  officeId: number;
  application: { id: number; exam_id: number };
  event: ApplicationEvent;
  from: ApplicationStatus;
  to: ApplicationStatus;
  reason: string;
  actor: Actor;
  at: string;
  messageParams: Partial<MessageParams>;
}

/**
 * Runs inside the step's transaction, after the status, history and audit rows: what it writes
 * commits with the step, and a hook that throws undoes the step.
 */
export type TransitionHook = (trx: Kysely<DB>, fact: TransitionFact) => Promise<void>;

/** The outcome of a step fired inside a transaction the caller holds. */
export type StepOutcome =
  | { kind: 'moved'; status: ApplicationStatus }
  | { kind: 'repeat'; status: ApplicationStatus }
  | { kind: 'refused'; msg: string; why: Extract<Verdict, { ok: false }>['why'] }
  /** The application was no longer in the status judged: the caller's transaction should be retried. */
  | { kind: 'raced' };

export interface FireResult {
  status: ApplicationStatus;
  /** False for a repeat (a doubled or concurrent request): nothing was written. */
  changed: boolean;
}

export interface FireManyInput {
  officeId: number;
  /** The applications as the caller read them (already within the actor's scope). */
  applications: readonly { id: number; exam_id: number; status: ApplicationStatus }[];
  event: ApplicationEvent;
  actor: Extract<Actor, { kind: 'staff' }>;
  reason?: string | undefined;
  auditNote?: string | undefined;
}

/** How often a step lost to a concurrent one is judged again before giving up. */
const ATTEMPTS = 3;

function lifecycleActor(actor: Actor): LifecycleActor {
  return actor.kind === 'staff' ? actor.role : actor.kind;
}

/**
 * The only code that writes an application's status. Each step is judged by the lifecycle in
 * packages/shared (who, from which status, under which conditions); a refusal leaves as the
 * lifecycle's Chinese message. An allowed step writes the status, its history entry and, for
 * staff, the audit record in one transaction, or none of them.
 */
export interface LifecycleDeps {
  repo: ApplicationsRepository;
  /** The exam's windows, which decide the phase a step is judged in (the exams' one lookup). */
  exams: Pick<ExamLookup, 'windows'>;
  audit: AuditService;
  /** Called in order for every step that changed something (the candidate's messages, for one). */
  onTransition?: readonly TransitionHook[];
  /** Told after a committed step that made an application start or stop counting as an applicant. */
  onApplicantsChanged?: (officeId: number) => void;
}

export function createLifecycle({ repo, exams, audit, onTransition = [], onApplicantsChanged }: LifecycleDeps) {
  const countsChange = (from: ApplicationStatus, to: ApplicationStatus) =>
    APPLICATION_STATES[from].applies !== APPLICATION_STATES[to].applies;

  async function phaseOf(officeId: number, examId: number): Promise<ExamPhase> {
    const w = await exams.windows(officeId, examId);
    return examPhase(
      {
        registrationStart: w.registration_start,
        registrationEnd: w.registration_end,
        reviewStart: w.review_start,
        reviewEnd: w.review_end,
        confirmationStart: w.confirmation_start,
        confirmationEnd: w.confirmation_end,
      },
      nowIso(),
    );
  }

  /** The step's writes, in the caller's transaction; false when the application had left `from` meanwhile. */
  async function write(trx: Kysely<DB>, input: FireInput, from: ApplicationStatus, to: ApplicationStatus): Promise<boolean> {
    const { officeId, event, actor } = input;
    const { id } = input.application;
    const t = transitionOf(event);
    const reason = input.reason?.trim() ?? '';
    const at = nowIso();
    const ok = await repo.moveStatus(trx, {
      officeId,
      id,
      from,
      to,
      reason,
      at,
      stamp: t.stamps ?? 'none',
      version: input.version?.expected,
    });
    if (!ok) return false;
    await repo.addHistory(trx, {
      application_id: id,
      status: to,
      reason,
      actor: historyActor(lifecycleActor(actor)),
      actor_id: actor.kind === 'system' ? null : actor.id,
      at,
    });
    if (actor.kind === 'staff') {
      const detail = [input.auditNote, reason].filter(Boolean).join('：');
      await audit.record(actor, t.label, `application:${id}`, detail, actor.ip, trx);
    }
    if (input.also) await input.also(trx);
    const fact: TransitionFact = {
      officeId,
      application: { id, exam_id: input.application.exam_id },
      event,
      from,
      to,
      reason,
      actor,
      at,
      messageParams: input.messageParams ?? {},
    };
    for (const hook of onTransition) await hook(trx, fact);
    return true;
  }

  function judge(input: FireInput, status: ApplicationStatus, phase: ExamPhase | undefined): Verdict {
    const reason = input.reason?.trim() ?? '';
    return canFire(status, input.event, lifecycleActor(input.actor), { ...input.facts, phase, reason });
  }

  return {
    /**
     * A step that belongs to a larger transaction the caller holds (a payment recorded with the
     * confirmation it causes). `input.application.status` must have been read in that transaction.
     */
    async fireIn(trx: Kysely<DB>, input: FireInput): Promise<StepOutcome> {
      const status = input.application.status;
      const verdict = judge(input, status, input.phase);
      if (!verdict.ok) return { kind: 'refused', msg: verdict.msg, why: verdict.why };
      if (verdict.repeat) return { kind: 'repeat', status };
      if (!(await write(trx, input, status, verdict.to))) return { kind: 'raced' };
      if (countsChange(status, verdict.to)) onApplicantsChanged?.(input.officeId);
      return { kind: 'moved', status: verdict.to };
    },

    async fire(input: FireInput): Promise<FireResult> {
      const { officeId, event } = input;
      const { id } = input.application;
      const t = transitionOf(event);
      let status = input.application.status;
      let phase = input.phase;
      if (phase === undefined && t.guards.some((g) => g !== 'inTime' && g !== 'free' && g !== 'switching'))
        phase = await phaseOf(officeId, input.application.exam_id);

      for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
        const verdict = judge(input, status, phase);
        if (!verdict.ok) throw new AppError(verdict.why === 'actor' ? ErrorCode.Forbidden : ErrorCode.Validation, verdict.msg);
        if (verdict.repeat) return { status, changed: false };
        const from = status;
        const moved = await repo.commit((trx) => write(trx, input, from, verdict.to));
        if (moved) {
          if (countsChange(from, verdict.to)) onApplicantsChanged?.(officeId);
          return { status: verdict.to, changed: true };
        }
        // Another request moved it first: judge the step again against the status it has now.
        const current = requireApplication(await repo.findById(officeId, id));
        if (input.version && current.status === from && current.version !== input.version.expected) {
          throw new AppError(ErrorCode.Conflict, input.version.conflict);
        }
        status = current.status;
      }
      throw new AppError(ErrorCode.Validation, '报名状态正在变化，请刷新后再试');
    },

    /**
     * One event applied to many applications as set-based statements in one transaction: the
     * machine judges each status read (a status it refuses, or a repeat, is skipped); the update
     * moves only rows still in a status the machine accepts, and the history and audit rows are
     * written for exactly the rows it moved. Answers the ids moved. For staff events without
     * guards on the exam's phase (approve, reject); a guarded event goes through fire().
     */
    async fireMany(input: FireManyInput): Promise<number[]> {
      const { officeId, event, actor } = input;
      const t = transitionOf(event);
      if (t.guards.length > 0) throw new Error(`fireMany: ${event} has guards; fire() it one by one`);
      const reason = input.reason?.trim() ?? '';
      const to = new Map<ApplicationStatus, number[]>();
      for (const a of input.applications) {
        const verdict = canFire(a.status, event, lifecycleActor(actor), { reason });
        if (!verdict.ok && verdict.why !== 'state')
          throw new AppError(verdict.why === 'actor' ? ErrorCode.Forbidden : ErrorCode.Validation, verdict.msg);
        if (!verdict.ok || verdict.repeat) continue;
        to.set(verdict.to, [...(to.get(verdict.to) ?? []), a.id]);
      }
      if (to.size === 0) return [];
      const at = nowIso();
      const detail = [input.auditNote, reason].filter(Boolean).join('：');
      const movedIds = await repo.commit(async (trx) => {
        const moved: number[] = [];
        for (const [target, ids] of to) {
          const ok = await repo.moveMany(trx, { officeId, ids, from: t.from, to: target, reason, at, stamp: t.stamps ?? 'none' });
          if (ok.length === 0) continue;
          await repo.addHistoryMany(
            trx,
            ok.map((id) => ({
              application_id: id,
              status: target,
              reason,
              actor: historyActor(lifecycleActor(actor)),
              actor_id: actor.id,
              at,
            })),
          );
          await audit.recordMany(
            actor,
            ok.map((id) => ({ action: t.label, target: `application:${id}`, detail })),
            actor.ip,
            trx,
          );
          // Each application's own messages, as one fire() would write them.
          for (const id of ok) {
            const a = input.applications.find((x) => x.id === id);
            if (!a) continue;
            const fact: TransitionFact = {
              officeId,
              application: { id, exam_id: a.exam_id },
              event,
              from: a.status,
              to: target,
              reason,
              actor,
              at,
              messageParams: {},
            };
            for (const hook of onTransition) await hook(trx, fact);
          }
          moved.push(...ok);
        }
        return moved;
      });
      if (movedIds.length > 0 && t.from.some((f) => [...to.keys()].some((target) => countsChange(f, target))))
        onApplicantsChanged?.(officeId);
      return movedIds;
    },

    /** Creates the candidate's application in the lifecycle's first status, with its history entry. */
    async start(input: {
      officeId: number;
      examId: number;
      candidateId: number;
      positionId: number | null;
      form: string;
      phase: ExamPhase;
    }): Promise<void> {
      const allowed = canEdit(null, { phase: input.phase });
      if (!allowed.ok) throw new AppError(ErrorCode.Validation, allowed.msg);
      const at = nowIso();
      await repo.commit(async (trx) => {
        const id = await repo.insertApplication(trx, {
          officeId: input.officeId,
          examId: input.examId,
          candidateId: input.candidateId,
          positionId: input.positionId,
          status: INITIAL_STATUS,
          form: input.form,
          at,
        });
        await repo.addHistory(trx, {
          application_id: id,
          status: INITIAL_STATUS,
          reason: '',
          actor: 'candidate',
          actor_id: input.candidateId,
          at,
        });
      });
    },
  };
}
export type Lifecycle = ReturnType<typeof createLifecycle>;
