import { describe, expect, it } from 'vitest';
import type { ExamPhase } from '../src/phases-and-roles';
import {
  APPLICATION_STATES,
  APPLICATION_STATUSES,
  confirmingStepRefusal,
  fromStatesOf,
  SEAT_BOUND_STATUSES,
  REVIEW_OPINION_STATUSES,
  SEATED_STATUSES,
  showsReviewOpinion,
  transitionOf,
  UNFINISHED_STATUSES,
  type ApplicationStatus,
} from '../src/registration/lifecycle';
import {
  availableLaterEvents,
  canFireLater,
  interviewEvent,
  LATER_EVENTS,
  LATER_STATES,
  LATER_STATUSES,
  LATER_TRANSITIONS,
  laterStateOf,
  offeredResults,
  resultEvent,
  type LaterActor,
  type LaterEvent,
  type LaterFacts,
  type LaterStatus,
} from '../src/scores/later-stages-lifecycle';

// The lists the server's SQL and checks read, written out by hand: a change to the machine that
// moves one of them fails here until this says the same.
describe('status lists derived from the machine', () => {
  it('who sits, who is bound for a seat, who still has a step ahead', () => {
    expect(SEATED_STATUSES).toEqual(['confirmed']);
    expect(SEAT_BOUND_STATUSES).toEqual(['approved', 'confirmed']);
    expect(UNFINISHED_STATUSES).toEqual(['draft', 'submitted', 'approved', 'rejected', 'confirmed', 'expired']);
    expect(fromStatesOf('expire')).toEqual(['approved']);
    expect(fromStatesOf('closeOut')).toEqual(['confirmed']);
    expect(fromStatesOf('cancel')).toEqual(['confirmed']);
  });

  it('both rejections show the review opinion; only a draft and a plain rejection go back to the form', () => {
    expect(REVIEW_OPINION_STATUSES).toEqual(['rejected', 'rejectedFinal']);
    expect(showsReviewOpinion('rejectedFinal')).toBe(true);
    expect(showsReviewOpinion('expired')).toBe(false);
    expect(showsReviewOpinion(null)).toBe(false);
    expect(fromStatesOf('submit')).toEqual(['draft']);
    expect(fromStatesOf('resubmit')).toEqual(['rejected']);
    expect(fromStatesOf('withdraw')).toEqual(['submitted']);
    // The confirmation step's states: before paying, paid, and refunded.
    expect([...fromStatesOf('pay'), transitionOf('pay').to, transitionOf('cancel').to]).toEqual([
      'approved',
      'expired',
      'confirmed',
      'cancelled',
    ]);
    expect(transitionOf('expire').to).toBe('expired');
    expect(transitionOf('submit').to).toBe('submitted');
    // A final rejection is the end for the candidate: the exam card offers no registration countdown.
    expect(APPLICATION_STATUSES.filter((s) => APPLICATION_STATES[s].final)).toEqual(['rejectedFinal']);
  });

  it('the statistics count each staff-visible status in at most one column, rejected for good among the rejected', () => {
    const tally = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, APPLICATION_STATES[s].tally ?? null]));
    expect(tally).toEqual({
      draft: null,
      submitted: 'submitted',
      approved: 'approved',
      rejected: 'rejected',
      rejectedFinal: 'rejected',
      confirmed: 'confirmed',
      expired: null,
      cancelled: null,
    });
  });

  it('a payment or a waiver asked for is pre-checked by a dry run of its event', () => {
    type Ctx = { at: string; deadline: string; phase: ExamPhase; fee: number };
    const inTime: Ctx = { at: '2026-12-01T00:00:00.000Z', deadline: '2026-12-02T00:00:00.000Z', phase: 'confirming', fee: 5000 };
    const late: Ctx = { at: '2026-12-03T00:00:00.000Z', deadline: '2026-12-02T00:00:00.000Z', phase: 'closed', fee: 5000 };
    const words = { done: '报名已确认，无需再缴费', notYet: '资格审查通过后才能缴费' };
    const answer = (status: ApplicationStatus, ctx = inTime) => confirmingStepRefusal(status, 'pay', ctx, words);
    expect(answer('approved')).toBeNull();
    expect(answer('confirmed')).toBe('报名已确认，无需再缴费');
    for (const s of ['draft', 'submitted', 'rejected', 'rejectedFinal', 'cancelled'] as const)
      expect(answer(s)).toBe('资格审查通过后才能缴费');
    expect(answer('expired', late)).toBe('未在确认截止前完成确认，报名无效');
    expect(answer('approved', late)).toBe('未在确认截止前完成确认，报名无效');
    expect(confirmingStepRefusal('confirmed', 'waive', inTime, { done: '报名已确认，无需申请减免', notYet: 'x' })).toBe(
      '报名已确认，无需申请减免',
    );
    // The fee step's own guards, after the dry run: the window open and a fee due.
    expect(answer('approved', { ...inTime, phase: 'reviewing' })).toBe('报名确认尚未开始，暂不能缴费');
    expect(answer('approved', { ...inTime, fee: 0 })).toBe('本考试无需缴费，请直接确认报名');
    const waive = (ctx: Ctx) => confirmingStepRefusal('approved', 'waive', ctx, { done: 'x', notYet: 'y' });
    expect(waive({ ...inTime, phase: 'closed' })).toBe('报名确认已截止，不能申请减免');
    expect(waive({ ...inTime, fee: 0 })).toBe('本考试无需缴费，请直接确认报名');
    expect(waive(inTime)).toBeNull();
  });
});

const STAFF: LaterActor[] = ['admin', 'reviewer'];
const ACTORS: LaterActor[] = ['admin', 'reviewer', 'system'];

/** Every allowed step after confirmation, written out by hand (not derived from the machine). */
const ALLOWED: [LaterStatus, LaterEvent, LaterActor[], LaterStatus][] = [
  ['seated', 'score', ['system'], 'scored'],
  ['scored', 'shortlist', ['system'], 'reviewing'],
  ['scored', 'fill', STAFF, 'reviewing'],
  ['reviewing', 'leaveList', STAFF, 'gaveUp'],
  ['interviewing', 'leaveList', STAFF, 'gaveUp'],
  ['reviewing', 'passQualification', STAFF, 'interviewing'],
  // Recorded late (after the interview, in 体检, hired): written, and the state stays.
  ['interviewed', 'passQualification', STAFF, 'interviewed'],
  ['medical', 'passQualification', STAFF, 'medical'],
  ['hired', 'passQualification', STAFF, 'hired'],
  ['reviewing', 'failQualification', STAFF, 'out'],
  ['interviewing', 'failQualification', STAFF, 'out'],
  ['interviewed', 'failQualification', STAFF, 'out'],
  ['reviewing', 'giveUp', STAFF, 'gaveUp'],
  ['interviewing', 'giveUp', STAFF, 'gaveUp'],
  ['interviewed', 'giveUp', STAFF, 'gaveUp'],
  ['reviewing', 'recordInterview', STAFF, 'interviewed'],
  ['interviewing', 'recordInterview', STAFF, 'interviewed'],
  ['reviewing', 'missInterview', STAFF, 'out'],
  ['interviewing', 'missInterview', STAFF, 'out'],
  ['interviewed', 'callToMedical', ['system'], 'medical'],
  ['medical', 'passMedical', STAFF, 'hired'],
  ['medical', 'failMedical', STAFF, 'out'],
  ['medical', 'giveUpMedical', STAFF, 'gaveUp'],
  ['hired', 'giveUpMedical', STAFF, 'gaveUp'],
];

describe('the machine after confirmation', () => {
  it('allows exactly the listed steps, to the listed state, by the listed actors; refuses every other pair with its words', () => {
    let allowed = 0;
    for (const status of LATER_STATUSES)
      for (const event of LATER_EVENTS)
        for (const actor of ACTORS) {
          const row = ALLOWED.find(([s, e, by]) => s === status && e === event && by.includes(actor));
          const v = canFireLater(status, event, actor);
          const t = LATER_TRANSITIONS[event];
          if (row) {
            allowed += 1;
            expect(v, `${status} ${event} ${actor}`).toEqual({ ok: true, to: row[3] });
          } else if (!(t.by as readonly LaterActor[]).includes(actor))
            expect(v, `${status} ${event} ${actor}`).toEqual({ ok: false, msg: `没有权限执行「${t.label}」`, why: 'actor' });
          else expect(v, `${status} ${event} ${actor}`).toEqual({ ok: false, msg: t.refused, why: 'state' });
        }
    expect(allowed).toBe(ALLOWED.reduce((n, [, , by]) => n + by.length, 0));
  });

  it('refuses a wrong actor before a wrong state, each with its own words', () => {
    expect(canFireLater('seated', 'passMedical', 'system')).toEqual({ ok: false, msg: '没有权限执行「体检合格」', why: 'actor' });
    expect(canFireLater('seated', 'passMedical', 'admin')).toEqual({
      ok: false,
      msg: LATER_TRANSITIONS.passMedical.refused,
      why: 'state',
    });
    expect(canFireLater('scored', 'leaveList', 'admin')).toEqual({ ok: false, msg: '该考生不在面试名单中，无需记录放弃', why: 'state' });
  });

  it('a final state has no way out and every other state has one', () => {
    for (const s of LATER_STATUSES) {
      const out = ACTORS.flatMap((a) => availableLaterEvents(s, a));
      expect(out.length === 0, s).toBe(LATER_STATES[s].final);
    }
    expect(LATER_STATUSES.filter((s) => LATER_STATES[s].final)).toEqual(['out', 'gaveUp']);
  });

  it('stores what each staff event says, and the console offers per stage what the machine allows', () => {
    expect(resultEvent('qualification', 'pass')).toBe('passQualification');
    expect(resultEvent('qualification', 'gaveUp')).toBe('giveUp');
    expect(resultEvent('medical', 'fail')).toBe('failMedical');
    expect(resultEvent('medical', 'gaveUp')).toBe('giveUpMedical');
    expect(interviewEvent('score')).toBe('recordInterview');
    expect(interviewEvent('void')).toBe('missInterview');
    // Only system events store nothing: they follow from the published scores and the ranks.
    expect(LATER_EVENTS.filter((e) => LATER_TRANSITIONS[e].records.kind === 'derived')).toEqual(['score', 'shortlist', 'callToMedical']);
    expect(offeredResults('reviewing', 'qualification', 'admin')).toEqual(['pass', 'fail', 'gaveUp']);
    expect(offeredResults('interviewing', 'qualification', 'admin')).toEqual(['fail', 'gaveUp']);
    expect(offeredResults('medical', 'qualification', 'admin')).toEqual(['pass']);
    expect(offeredResults('out', 'qualification', 'admin')).toEqual([]);
    expect(offeredResults('medical', 'medical', 'reviewer')).toEqual(['pass', 'fail', 'gaveUp']);
    expect(offeredResults('hired', 'medical', 'admin')).toEqual(['gaveUp']);
    expect(offeredResults('interviewed', 'medical', 'admin')).toEqual([]);
  });

  it('reads the stored results of the stages into one state', () => {
    const none: LaterFacts = {
      scored: false,
      listed: false,
      leftList: false,
      qualification: null,
      interview: null,
      inMedical: false,
      medical: null,
    };
    const cases: [Partial<LaterFacts>, LaterStatus][] = [
      [{}, 'seated'],
      [{ scored: true }, 'scored'],
      [{ scored: true, listed: true }, 'reviewing'],
      [{ scored: true, listed: true, qualification: 'pass' }, 'interviewing'],
      [{ scored: true, listed: true, interview: 'score' }, 'interviewed'],
      [{ scored: true, listed: true, qualification: 'pass', interview: 'score', inMedical: true }, 'medical'],
      [{ scored: true, listed: true, qualification: 'pass', interview: 'score', inMedical: true, medical: 'pass' }, 'hired'],
      [{ scored: true, listed: true, qualification: 'fail' }, 'out'],
      [{ scored: true, listed: true, interview: 'absent' }, 'out'],
      [{ scored: true, listed: true, interview: 'void' }, 'out'],
      [{ scored: true, listed: true, interview: 'score', inMedical: true, medical: 'fail' }, 'out'],
      [{ scored: true, listed: true, qualification: 'gaveUp' }, 'gaveUp'],
      [{ scored: true, leftList: true }, 'gaveUp'],
      [{ scored: true, listed: true, interview: 'score', inMedical: true, medical: 'gaveUp' }, 'gaveUp'],
    ];
    for (const [facts, state] of cases) expect(laterStateOf({ ...none, ...facts }), JSON.stringify(facts)).toBe(state);
    // Who sits the interview: on the list and not out of it at 资格复审 (as stages/service.ts's interviewees).
    expect(LATER_STATUSES.filter((s) => LATER_STATES[s].interviews)).toEqual(['reviewing', 'interviewing', 'interviewed']);
  });
});
