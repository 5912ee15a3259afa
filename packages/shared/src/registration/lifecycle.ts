/**
 * The application lifecycle, declared once: every status an application can be in, every event
 * that moves it, who may fire each event, under which conditions, and the Chinese message that
 * explains a refusal. Plain data and pure functions without zod, so that the candidate site's
 * shell, the console and the server all read the very same rules. The server applies a transition
 * only through modules/registration/applications/lifecycle.ts, which asks `canFire` first.
 *
 * Adding a status: add it to APPLICATION_STATUSES and APPLICATION_STATES, add the events that lead
 * to and away from it to APPLICATION_TRANSITIONS; the compiler then points at every place that
 * must say how the new status looks (the candidate's status card, the console's tag colours).
 */
import type { ExamPhase, StaffRole } from '../phases-and-roles';

/** What each exam phase is called on screen (here, without zod, for the plain pages). */
export const EXAM_PHASE_LABEL: Readonly<Record<ExamPhase, string>> = {
  upcoming: '即将开始报名',
  registering: '报名中',
  reviewing: '资格审查中',
  confirming: '报名确认中',
  closed: '已结束',
};

export const APPLICATION_STATUSES = [
  'draft',
  'submitted',
  'approved',
  'rejected',
  'rejectedFinal',
  'confirmed',
  'expired',
  'cancelled',
] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export interface ApplicationStateDef {
  label: string;
  /** Why the candidate may not change the form in this status; left out: the form is still theirs. */
  locked?: string;
  /** Staff see it (queue, detail, export). An unsubmitted draft is the candidate's own business. */
  staffSees: boolean;
  /** It counts as an applicant of its position (the live counts and the ratio per place). */
  applies: boolean;
  /** The end for the candidate: any event of theirs is refused with this (not with the event's own refusal). */
  final?: string;
  /**
   * It sits the exam: it has a seat and a ticket, is expected at the door and on the sign-in
   * sheets, and is told of the exam's later steps (scores, the stages after them).
   */
  sits: boolean;
  /** Past review and bound for a seat (or in one): the candidate may choose the site city. */
  seatBound: boolean;
  /** The column of the console's statistics it is counted in (none: counted in no column). */
  tally?: 'submitted' | 'approved' | 'rejected' | 'confirmed';
  /** Review turned it down: the candidate is shown the reviewer's reason (审核意见) beside it. */
  reviewOpinion?: true;
}

export const APPLICATION_STATES: Readonly<Record<ApplicationStatus, ApplicationStateDef>> = {
  draft: { label: '草稿', staffSees: false, applies: false, sits: false, seatBound: false },
  submitted: {
    label: '待审核',
    locked: '报名信息已提交待审核，如需修改请先撤回',
    staffSees: true,
    applies: true,
    sits: false,
    seatBound: false,
    tally: 'submitted',
  },
  approved: {
    label: '审核通过',
    locked: '报名已审核通过，信息已锁定',
    staffSees: true,
    applies: true,
    sits: false,
    seatBound: true,
    tally: 'approved',
  },
  rejected: { label: '审核未通过', staffSees: true, applies: false, sits: false, seatBound: false, tally: 'rejected', reviewOpinion: true },
  // Rejected for good (a condition the candidate cannot meet, a false statement): no event leads
  // away from it, so the form can be neither changed nor resubmitted, nor withdrawn and sent again.
  rejectedFinal: {
    label: '不通过（不得再报）',
    locked: '报名审核不通过（不得再报），不能修改或重新提交',
    staffSees: true,
    applies: false,
    final: '报名审核不通过（不得再报），不能修改、撤回或重新提交',
    sits: false,
    seatBound: false,
    tally: 'rejected',
    reviewOpinion: true,
  },
  confirmed: {
    label: '已确认',
    locked: '报名已确认，信息已锁定',
    staffSees: true,
    applies: true,
    sits: true,
    seatBound: true,
    tally: 'confirmed',
  },
  // Not confirmed by the end of the confirmation window: the application no longer counts.
  expired: {
    label: '报名无效',
    locked: '未在确认截止前完成确认，报名无效',
    staffSees: true,
    applies: false,
    sits: false,
    seatBound: false,
  },
  // Its position was cancelled (or staff cancelled it) and the fee, if any, goes back.
  cancelled: { label: '已取消', locked: '报名已取消', staffSees: true, applies: false, sits: false, seatBound: false },
};

// After `confirmed` the application goes on in a second machine (seat → 拟录用), declared the same way.
export * from '../scores/later-stages-lifecycle';

/** The status a new application starts in (the first save of the form creates it). */
export const INITIAL_STATUS: ApplicationStatus = 'draft';

/** A record with an entry for every status (counts per status, labels, colours). */
export function byStatus<T>(pick: (status: ApplicationStatus) => T): Record<ApplicationStatus, T> {
  return Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, pick(s)])) as Record<ApplicationStatus, T>;
}

export const APPLICATION_STATUS_LABEL: Readonly<Record<ApplicationStatus, string>> = byStatus((s) => APPLICATION_STATES[s].label);

/** Statuses whose form the candidate may still change (while registration is open). */
export const CANDIDATE_EDITABLE_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) => !APPLICATION_STATES[s].locked);
/** Statuses staff may read; the others are never listed, opened or exported. */
export const STAFF_VISIBLE_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) => APPLICATION_STATES[s].staffSees);
/** Statuses that count as applying for a position. */
export const APPLICANT_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) => APPLICATION_STATES[s].applies);

/** Statuses that sit the exam (seat, ticket, door, sign-in sheet, scores). */
export const SEATED_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) => APPLICATION_STATES[s].sits);
/** Statuses past review and bound for a seat. */
export const SEAT_BOUND_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) => APPLICATION_STATES[s].seatBound);

/** Statuses shown with the reviewer's reason (both rejections). */
export const REVIEW_OPINION_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter(
  (s) => APPLICATION_STATES[s].reviewOpinion,
);
/** Whether the candidate is shown the review opinion with an application in `status`. */
export const showsReviewOpinion = (status: ApplicationStatus | null | undefined): boolean =>
  !!status && !!APPLICATION_STATES[status].reviewOpinion;

export const isStaffVisible = (status: ApplicationStatus): boolean => APPLICATION_STATES[status].staffSees;

/** Why the candidate's form is read-only in this status, or null while it is theirs (no application yet: theirs). */
export function formLock(status: ApplicationStatus | null | undefined): string | null {
  return status ? (APPLICATION_STATES[status].locked ?? null) : null;
}

/** Who fires an event: the candidate, a staff member by role, or the server itself at a deadline. */
export type LifecycleActor = 'candidate' | StaffRole | 'system';

/** Who an entry of the status history names (staff by role would say more than the candidate needs). */
export const HISTORY_ACTORS = ['candidate', 'staff', 'system'] as const;
export type HistoryActor = (typeof HISTORY_ACTORS)[number];

export function historyActor(actor: LifecycleActor): HistoryActor {
  return actor === 'candidate' || actor === 'system' ? actor : 'staff';
}

/** What the world must look like for an event (checked against the context the caller gives). */
export type LifecycleGuard = 'registering' | 'confirming' | 'free' | 'feeDue' | 'inTime' | 'confirmationOver' | 'switching';

export interface LifecycleContext {
  /** The phase of the application's exam, read from its windows now. */
  phase?: ExamPhase | undefined;
  /** The reason the actor gives (a rejection must have one). */
  reason?: string | undefined;
  /** The exam's fee in fen (confirming with one click is for exams without one). */
  fee?: number | undefined;
  /**
   * When the thing that confirms happened: the provider's time of payment, or when the fee waiver
   * was asked for. Compared with `deadline`, so a notify that arrives late for a payment made in
   * time still confirms.
   */
  at?: string | undefined;
  /** The end of the exam's confirmation window. */
  deadline?: string | undefined;
  /** The exam's switch window is open and the application's position has been cancelled. */
  switching?: boolean | undefined;
}

export interface TransitionDef {
  /** What the event does, in the words of the audit log and of refusals. */
  label: string;
  from: readonly ApplicationStatus[];
  to: ApplicationStatus;
  by: readonly LifecycleActor[];
  guards: readonly LifecycleGuard[];
  /** Set: a reason is required, and this is what a missing one is told. */
  reasonRequired?: string;
  /**
   * Statuses in which firing the event again is a harmless repeat (a doubled click, a retried or
   * concurrent request): answered with the status as it is, nothing written.
   */
  repeatIn: readonly ApplicationStatus[];
  /** The refusal when the application is in none of `from` and `repeatIn`. */
  refused: string;
  /** The moment the step records beside the status. */
  stamps?: 'submittedAt' | 'reviewedAt';
}

const STILL_UNDER_REVIEW = '该报名不在待审核状态（可能已被审核或已撤回），请刷新后再试';

export const APPLICATION_TRANSITIONS = {
  submit: {
    label: '提交报名',
    from: ['draft'],
    to: 'submitted',
    by: ['candidate'],
    guards: ['registering'],
    repeatIn: ['submitted', 'approved'],
    refused: '当前状态不能提交报名，请刷新后再试',
    stamps: 'submittedAt',
  },
  resubmit: {
    label: '重新提交报名',
    from: ['rejected'],
    to: 'submitted',
    by: ['candidate'],
    guards: ['registering'],
    repeatIn: ['submitted', 'approved'],
    refused: '只有审核未通过的报名可以修改后重新提交',
    stamps: 'submittedAt',
  },
  withdraw: {
    label: '撤回报名',
    from: ['submitted'],
    to: 'draft',
    by: ['candidate'],
    guards: ['registering'],
    repeatIn: ['draft'],
    refused: '报名已审核，不能撤回',
  },
  approve: {
    label: '审核通过',
    from: ['submitted'],
    to: 'approved',
    by: ['admin', 'reviewer'],
    guards: [],
    repeatIn: [],
    refused: STILL_UNDER_REVIEW,
    stamps: 'reviewedAt',
  },
  reject: {
    label: '审核不通过',
    from: ['submitted'],
    to: 'rejected',
    by: ['admin', 'reviewer'],
    guards: [],
    reasonRequired: '审核不通过时必须填写原因',
    repeatIn: [],
    refused: STILL_UNDER_REVIEW,
    stamps: 'reviewedAt',
  },
  rejectFinal: {
    label: '审核不通过（不得再报）',
    from: ['submitted'],
    to: 'rejectedFinal',
    by: ['admin', 'reviewer'],
    guards: [],
    reasonRequired: '审核不通过时必须填写原因',
    repeatIn: [],
    refused: STILL_UNDER_REVIEW,
    stamps: 'reviewedAt',
  },
  confirm: {
    label: '确认报名',
    from: ['approved'],
    to: 'confirmed',
    by: ['candidate'],
    guards: ['confirming', 'free'],
    repeatIn: ['confirmed'],
    refused: '只有审核通过的报名可以确认',
  },
  pay: {
    label: '缴费确认',
    from: ['approved', 'expired'],
    to: 'confirmed',
    by: ['system'],
    guards: ['inTime'],
    repeatIn: ['confirmed'],
    refused: '报名状态已变化，该笔缴费不能用于确认',
  },
  waive: {
    label: '减免确认',
    from: ['approved', 'expired'],
    to: 'confirmed',
    by: ['admin', 'reviewer'],
    guards: ['inTime'],
    repeatIn: ['confirmed'],
    refused: '报名状态已变化，不能按减免确认',
  },
  expire: {
    label: '逾期未确认',
    from: ['approved'],
    to: 'expired',
    by: ['system'],
    guards: ['confirmationOver'],
    repeatIn: ['expired'],
    refused: '只有待确认的报名会逾期',
  },
  switch: {
    label: '改报岗位',
    from: ['confirmed'],
    to: 'confirmed',
    by: ['candidate'],
    guards: ['switching'],
    repeatIn: [],
    refused: '只有已确认的报名可以改报',
  },
  optOut: {
    label: '放弃改报并退费',
    from: ['confirmed'],
    to: 'cancelled',
    by: ['candidate'],
    guards: ['switching'],
    repeatIn: ['cancelled'],
    refused: '只有已确认的报名可以申请退费',
  },
  closeOut: {
    label: '岗位取消',
    from: ['confirmed'],
    to: 'cancelled',
    by: ['system'],
    guards: [],
    repeatIn: ['cancelled'],
    refused: '只有已确认的报名随岗位取消',
  },
  cancel: {
    label: '取消报名并退费',
    from: ['confirmed'],
    to: 'cancelled',
    by: ['admin'],
    guards: [],
    reasonRequired: '取消报名时必须填写原因',
    repeatIn: ['cancelled'],
    refused: '只有已确认的报名可以取消',
  },
} as const satisfies Record<string, TransitionDef>;

export type ApplicationEvent = keyof typeof APPLICATION_TRANSITIONS;
export const APPLICATION_EVENTS = Object.keys(APPLICATION_TRANSITIONS) as ApplicationEvent[];

export function transitionOf(event: ApplicationEvent): TransitionDef {
  return APPLICATION_TRANSITIONS[event];
}

/** The statuses `event` leaves (a sweep or a batch asks the database for exactly these). */
export function fromStatesOf(event: ApplicationEvent): readonly ApplicationStatus[] {
  return transitionOf(event).from;
}

/**
 * Statuses with a step still ahead: some event leads away from them. The others (rejected for
 * good, cancelled) are closed, and a changed schedule or a later notice no longer concerns them.
 */
export const UNFINISHED_STATUSES: readonly ApplicationStatus[] = APPLICATION_STATUSES.filter((s) =>
  APPLICATION_EVENTS.some((e) => transitionOf(e).from.includes(s)),
);

export type Refusal = { ok: false; msg: string; why: 'actor' | 'state' | 'guard' | 'reason' };
/** `repeat`: the event already happened; `to` is then the status as it is and nothing is to be written. */
export type Verdict = { ok: true; to: ApplicationStatus; repeat: boolean } | Refusal;

function guardProblem(guard: LifecycleGuard, what: string, ctx: LifecycleContext): string | null {
  switch (guard) {
    case 'registering':
      if (ctx.phase === 'registering') return null;
      return ctx.phase === 'upcoming' ? `报名尚未开始，暂不能${what}` : `报名已截止，不能${what}`;
    case 'confirming':
      if (ctx.phase === 'confirming') return null;
      return ctx.phase === 'closed' ? `报名确认已截止，不能${what}` : `报名确认尚未开始，暂不能${what}`;
    case 'free':
      return ctx.fee === 0 ? null : '本考试需缴纳报名费，请先完成缴费';
    case 'feeDue':
      return ctx.fee !== undefined && ctx.fee > 0 ? null : '本考试无需缴费，请直接确认报名';
    case 'inTime':
      return ctx.at !== undefined && ctx.deadline !== undefined && ctx.at <= ctx.deadline ? null : `已超过报名确认截止时间，不能${what}`;
    case 'confirmationOver':
      return ctx.phase === 'closed' ? null : '报名确认尚未截止';
    case 'switching':
      return ctx.switching === true ? null : '当前不在改报期内，或所报岗位未被取消';
  }
}

/** Whether `actor` may fire `event` on an application in `status`, and where it leads. */
export function canFire(status: ApplicationStatus, event: ApplicationEvent, actor: LifecycleActor, ctx: LifecycleContext = {}): Verdict {
  const t = transitionOf(event);
  if (!t.by.includes(actor)) return { ok: false, msg: `没有权限执行「${t.label}」`, why: 'actor' };
  if (t.repeatIn.includes(status)) return { ok: true, to: status, repeat: true };
  if (!t.from.includes(status)) {
    const final = actor === 'candidate' ? APPLICATION_STATES[status].final : undefined;
    return { ok: false, msg: final ?? t.refused, why: 'state' };
  }
  for (const g of t.guards) {
    const msg = guardProblem(g, t.label, ctx);
    if (msg) return { ok: false, msg, why: 'guard' };
  }
  if (t.reasonRequired && !ctx.reason?.trim()) return { ok: false, msg: t.reasonRequired, why: 'reason' };
  return { ok: true, to: t.to, repeat: false };
}

/**
 * The events `actor` can fire now. A required reason is not asked here: it is typed when firing
 * (see `reasonRequired`); a guard whose fact the context leaves out counts as unmet.
 */
export function availableEvents(status: ApplicationStatus, actor: LifecycleActor, ctx: LifecycleContext = {}): ApplicationEvent[] {
  return APPLICATION_EVENTS.filter((e) => {
    const v = canFire(status, e, actor, { ...ctx, reason: 'x' });
    return v.ok && !v.repeat;
  });
}

/**
 * Of several events one call may mean (the candidate's 提交 is `submit` from a draft and
 * `resubmit` after a rejection), the one that leaves `status`; else the first, so that its
 * repeat or refusal answers.
 */
export function eventFrom(status: ApplicationStatus, events: readonly [ApplicationEvent, ...ApplicationEvent[]]): ApplicationEvent {
  return events.find((e) => transitionOf(e).from.includes(status)) ?? events[0];
}

/** Starting a payment or asking for a fee waiver: the confirmation window is open and the exam has a fee. */
const FEE_STEP_GUARDS: readonly LifecycleGuard[] = ['confirming', 'feeDue'];

/**
 * The fee rule in one place. Before the candidate starts what will confirm the application later
 * (a payment, a fee waiver asked for): a dry run of that event as if it happened now, then the
 * fee step's own guards (the window open, a fee due), said in the candidate's words; null when it
 * may start.
 */
export function confirmingStepRefusal(
  status: ApplicationStatus,
  event: 'pay' | 'waive',
  ctx: Pick<LifecycleContext, 'at' | 'deadline' | 'phase' | 'fee'>,
  words: { done: string; notYet: string },
): string | null {
  const t = transitionOf(event);
  const v = canFire(status, event, t.by[0] ?? 'system', ctx);
  if (v.ok && v.repeat) return words.done;
  // Too late is what `expire` makes of the application: say it as its status says it.
  if (!v.ok) return v.why === 'guard' ? (APPLICATION_STATES[transitionOf('expire').to].locked ?? v.msg) : words.notYet;
  const what = event === 'pay' ? '缴费' : '申请减免';
  for (const g of FEE_STEP_GUARDS) {
    const msg = guardProblem(g, what, ctx);
    if (msg) return msg;
  }
  return null;
}

/** Whether the candidate may change the form (or start one, `status` null) now. */
export function canEdit(status: ApplicationStatus | null, ctx: LifecycleContext): { ok: true } | { ok: false; msg: string } {
  const phase = guardProblem('registering', '修改报名信息', ctx);
  if (phase) return { ok: false, msg: phase };
  const locked = status === null ? undefined : APPLICATION_STATES[status].locked;
  return locked ? { ok: false, msg: locked } : { ok: true };
}
