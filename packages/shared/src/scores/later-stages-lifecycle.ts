/**
 * What happens to an application after it is confirmed, declared once in the style of
 * lifecycle.ts: every state from the seat to 拟录用, every event that moves it, who fires it and
 * from where, and a pure `canFire`. lifecycle.ts ends at `confirmed`; this machine starts there.
 *
 * Today the server stores the results of each stage (stage_result: 资格复审 and 体检 pass / fail /
 * 放弃, the interview score / 缺考 / 违纪) and ranks from them; `laterStateOf` reads those stored
 * results into one state of this machine, so the server's checks and both UIs ask the machine
 * (`LATER_STATES[state].interviews`, `canFireLater`) instead of comparing outcomes themselves.
 *
 * 递补: one who fails or gives up at 体检 leaves `medical`; the next by final rank is then called
 * (`callToMedical` from `interviewed`), as `medicalEntrants` in stages.ts decides.
 */
import type { StaffRole } from '../phases-and-roles';

export const LATER_STATUSES = [
  'seated',
  'scored',
  'reviewing',
  'interviewing',
  'interviewed',
  'medical',
  'hired',
  'out',
  'gaveUp',
] as const;
export type LaterStatus = (typeof LATER_STATUSES)[number];

export interface LaterStateDef {
  label: string;
  /** Still in the running: may be interviewed, ranked and called to 体检 (资格复审 not failed or given up). */
  inRunning: boolean;
  /** On the interview list and not out of it: sits the interview (its score may be imported). */
  interviews: boolean;
  /** The end: no event leads away from it. */
  final: boolean;
}

export const LATER_STATES: Readonly<Record<LaterStatus, LaterStateDef>> = {
  seated: { label: '待考试', inRunning: true, interviews: false, final: false },
  scored: { label: '已出成绩', inRunning: true, interviews: false, final: false },
  // On the interview list (进入资格复审): 资格复审 and the interview may come in either order.
  reviewing: { label: '资格复审中', inRunning: true, interviews: true, final: false },
  interviewing: { label: '资格复审合格，待面试', inRunning: true, interviews: true, final: false },
  interviewed: { label: '已面试', inRunning: true, interviews: true, final: false },
  medical: { label: '体检中', inRunning: true, interviews: false, final: false },
  hired: { label: '拟录用', inRunning: true, interviews: false, final: false },
  out: { label: '未通过', inRunning: false, interviews: false, final: true },
  gaveUp: { label: '放弃', inRunning: false, interviews: false, final: true },
};

export const LATER_STATUS_LABEL: Readonly<Record<LaterStatus, string>> = Object.fromEntries(
  LATER_STATUSES.map((s) => [s, LATER_STATES[s].label]),
) as Record<LaterStatus, string>;

/** Who fires a later event: staff by role, or the server itself (publishing, ranking). */
export type LaterActor = StaffRole | 'system';

/**
 * What a staff event stores (the state is read back from these records by `laterStateOf`): a
 * 资格复审 or 体检 result, an interview mark from the imported sheet, or the interview list's own
 * marks (放弃 opens a place, 递补 takes one). System events store nothing of their own: they follow
 * from the published scores and the ranks.
 */
export type LaterRecord =
  | { kind: 'result'; stage: 'qualification' | 'medical'; outcome: 'pass' | 'fail' | 'gaveUp' }
  | { kind: 'interview'; outcomes: readonly ('score' | 'absent' | 'void')[] }
  | { kind: 'list'; mark: 'gaveUp' | 'filled' }
  | { kind: 'derived' };

export interface LaterTransitionDef {
  label: string;
  from: readonly LaterStatus[];
  to: LaterStatus;
  /**
   * States in which the event is recorded without moving the application (a 资格复审 pass written
   * after the interview changes no rank and no list): allowed, and `to` is then the state itself.
   */
  stays: readonly LaterStatus[];
  by: readonly LaterActor[];
  records: LaterRecord;
  /** The refusal when the application is in none of `from` and `stays`. */
  refused: string;
}

const STAFF: readonly LaterActor[] = ['admin', 'reviewer'];
/** On the interview list and not yet interviewed: 资格复审 and the interview may come in either order. */
const LISTED: readonly LaterStatus[] = ['reviewing', 'interviewing'];
/** On the list and not out of it before 体检: 资格复审 can still fail them, they can still give it up. */
const BEFORE_MEDICAL: readonly LaterStatus[] = [...LISTED, 'interviewed'];

export const LATER_TRANSITIONS = {
  score: {
    label: '公布笔试成绩',
    from: ['seated'],
    to: 'scored',
    stays: [],
    by: ['system'],
    records: { kind: 'derived' },
    refused: '只有参加考试的考生有笔试成绩',
  },
  shortlist: {
    label: '进入面试名单',
    from: ['scored'],
    to: 'reviewing',
    stays: [],
    by: ['system'],
    records: { kind: 'derived' },
    refused: '只有已出成绩的考生可以进入面试名单',
  },
  // 递补 into the interview list: the service picks who by rank; the machine says from where.
  fill: {
    label: '面试递补',
    from: ['scored'],
    to: 'reviewing',
    stays: [],
    by: STAFF,
    records: { kind: 'list', mark: 'filled' },
    refused: '只有已出成绩且不在面试名单中的考生可以递补',
  },
  // 放弃 of a place on the interview list (before 资格复审 or the interview): the place may be filled.
  leaveList: {
    label: '记录放弃面试',
    from: LISTED,
    to: 'gaveUp',
    stays: [],
    by: STAFF,
    records: { kind: 'list', mark: 'gaveUp' },
    refused: '该考生不在面试名单中，无需记录放弃',
  },
  passQualification: {
    label: '资格复审合格',
    from: ['reviewing'],
    to: 'interviewing',
    stays: ['interviewed', 'medical', 'hired'],
    by: STAFF,
    records: { kind: 'result', stage: 'qualification', outcome: 'pass' },
    refused: '只有面试名单中待资格复审的考生可以记录复审合格',
  },
  failQualification: {
    label: '资格复审不合格',
    from: BEFORE_MEDICAL,
    to: 'out',
    stays: [],
    by: STAFF,
    records: { kind: 'result', stage: 'qualification', outcome: 'fail' },
    refused: '只有面试名单中尚未进入体检的考生可以记录资格复审不合格',
  },
  giveUp: {
    label: '资格复审放弃',
    from: BEFORE_MEDICAL,
    to: 'gaveUp',
    stays: [],
    by: STAFF,
    records: { kind: 'result', stage: 'qualification', outcome: 'gaveUp' },
    refused: '只有面试名单中尚未进入体检的考生可以记录资格复审放弃',
  },
  recordInterview: {
    label: '记录面试成绩',
    from: LISTED,
    to: 'interviewed',
    stays: [],
    by: STAFF,
    records: { kind: 'interview', outcomes: ['score'] },
    refused: '只有面试名单中资格复审未被淘汰的考生可以记录面试成绩',
  },
  missInterview: {
    label: '面试缺考或违纪',
    from: LISTED,
    to: 'out',
    stays: [],
    by: STAFF,
    records: { kind: 'interview', outcomes: ['absent', 'void'] },
    refused: '只有面试名单中资格复审未被淘汰的考生可以记录面试结果',
  },
  callToMedical: {
    label: '进入体检（含递补）',
    from: ['interviewed'],
    to: 'medical',
    stays: [],
    by: ['system'],
    records: { kind: 'derived' },
    refused: '只有已面试并排名的考生可以进入体检',
  },
  passMedical: {
    label: '体检合格',
    from: ['medical'],
    to: 'hired',
    stays: [],
    by: STAFF,
    records: { kind: 'result', stage: 'medical', outcome: 'pass' },
    refused: '只有进入体检且尚无结果的考生可以记录体检合格',
  },
  failMedical: {
    label: '体检不合格',
    from: ['medical'],
    to: 'out',
    stays: [],
    by: STAFF,
    records: { kind: 'result', stage: 'medical', outcome: 'fail' },
    refused: '只有进入体检且尚无结果的考生可以记录体检不合格',
  },
  // 放弃 at 体检 or after it (拟录用 given up): the next by rank is called (递补, `callToMedical`).
  giveUpMedical: {
    label: '体检放弃',
    from: ['medical', 'hired'],
    to: 'gaveUp',
    stays: [],
    by: STAFF,
    records: { kind: 'result', stage: 'medical', outcome: 'gaveUp' },
    refused: '只有进入体检的考生可以记录体检放弃',
  },
} as const satisfies Record<string, LaterTransitionDef>;

export type LaterEvent = keyof typeof LATER_TRANSITIONS;
export const LATER_EVENTS = Object.keys(LATER_TRANSITIONS) as LaterEvent[];

export function laterTransitionOf(event: LaterEvent): LaterTransitionDef {
  return LATER_TRANSITIONS[event];
}

export type LaterVerdict = { ok: true; to: LaterStatus } | { ok: false; msg: string; why: 'actor' | 'state' };

/** Whether `actor` may fire `event` on an application in `status`, and where it leads. */
export function canFireLater(status: LaterStatus, event: LaterEvent, actor: LaterActor): LaterVerdict {
  const t = laterTransitionOf(event);
  if (!t.by.includes(actor)) return { ok: false, msg: `没有权限执行「${t.label}」`, why: 'actor' };
  if (t.stays.includes(status)) return { ok: true, to: status };
  if (!t.from.includes(status)) return { ok: false, msg: t.refused, why: 'state' };
  return { ok: true, to: t.to };
}

/** The events `actor` can fire now (what a console offers for the row). */
export function availableLaterEvents(status: LaterStatus, actor: LaterActor): LaterEvent[] {
  return LATER_EVENTS.filter((e) => canFireLater(status, e, actor).ok);
}

export type ResultStage = 'qualification' | 'medical';
export type ResultOutcome = 'pass' | 'fail' | 'gaveUp';

/** The event that records `outcome` at 资格复审 or 体检 (what a result chosen in the console fires). */
export function resultEvent(stage: ResultStage, outcome: ResultOutcome): LaterEvent {
  const event = LATER_EVENTS.find((e) => {
    const r = laterTransitionOf(e).records;
    return r.kind === 'result' && r.stage === stage && r.outcome === outcome;
  });
  if (!event) throw new Error(`no event records ${stage} ${outcome}`);
  return event;
}

/** The results of `stage` that `actor` may record for an application in `status` (the console's choices). */
export function offeredResults(status: LaterStatus, stage: ResultStage, actor: LaterActor): ResultOutcome[] {
  return availableLaterEvents(status, actor).flatMap((e) => {
    const r = laterTransitionOf(e).records;
    return r.kind === 'result' && r.stage === stage ? [r.outcome] : [];
  });
}

/** The interview mark's event: a score is `recordInterview`, 缺考 and 违纪 `missInterview`. */
export function interviewEvent(outcome: 'score' | 'absent' | 'void'): LaterEvent {
  return outcome === 'score' ? 'recordInterview' : 'missInterview';
}

/** The results stored for one application, as stages/service.ts reads them. */
export interface LaterFacts {
  /** It has a written score (the ranking and the interview list are made from it). */
  scored: boolean;
  /** It is on the interview list (an entrant of the stages). */
  listed: boolean;
  /** It gave up its place on the interview list (放弃面试, recorded on the scores page). */
  leftList: boolean;
  qualification: 'pass' | 'fail' | 'gaveUp' | null;
  interview: 'score' | 'absent' | 'void' | null;
  /** Called to 体检 by final rank (递补 included). */
  inMedical: boolean;
  medical: 'pass' | 'fail' | 'gaveUp' | null;
}

/** The state the stored results put an application in (a confirmed one that sits the exam). */
export function laterStateOf(f: LaterFacts): LaterStatus {
  if (f.leftList || f.qualification === 'gaveUp' || f.medical === 'gaveUp') return 'gaveUp';
  if (f.qualification === 'fail' || f.interview === 'absent' || f.interview === 'void' || f.medical === 'fail') return 'out';
  if (f.inMedical) return f.medical === 'pass' ? 'hired' : 'medical';
  if (f.interview === 'score') return 'interviewed';
  if (f.listed) return f.qualification === 'pass' ? 'interviewing' : 'reviewing';
  return f.scored ? 'scored' : 'seated';
}
