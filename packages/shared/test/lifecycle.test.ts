import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExamPhase } from '../src/phases-and-roles';
import {
  APPLICANT_STATUSES,
  APPLICATION_EVENTS,
  APPLICATION_STATUS_LABEL,
  APPLICATION_STATUSES,
  APPLICATION_TRANSITIONS,
  availableEvents,
  canEdit,
  canFire,
  CANDIDATE_EDITABLE_STATUSES,
  eventFrom,
  formLock,
  historyActor,
  INITIAL_STATUS,
  STAFF_VISIBLE_STATUSES,
  type ApplicationEvent,
  type ApplicationStatus,
  type LifecycleActor,
  type LifecycleContext,
} from '../src/registration/lifecycle';
import { staffUnitScope, unitInScope } from '../src/access/staff';

const STILL_UNDER_REVIEW = '该报名不在待审核状态（可能已被审核或已撤回），请刷新后再试';
const ACTORS: LifecycleActor[] = ['candidate', 'admin', 'reviewer', 'system'];
const open = { phase: 'registering' as ExamPhase };

/** A context in which each event's guards hold (a reason given too). */
function fits(event: ApplicationEvent): LifecycleContext {
  switch (event) {
    case 'confirm':
      return { phase: 'confirming', fee: 0, reason: '理由' };
    case 'pay':
    case 'waive':
      return { at: '2026-12-01T00:00:00.000Z', deadline: '2026-12-02T00:00:00.000Z', reason: '理由' };
    case 'expire':
      return { phase: 'closed', reason: '理由' };
    case 'switch':
    case 'optOut':
      return { switching: true, reason: '理由' };
    default:
      return { ...open, reason: '理由' };
  }
}

/**
 * Every allowed step, written out by hand (not derived from the machine): a change to the machine
 * that adds, drops or redirects a step fails here until this table says the same.
 */
const ALLOWED: [ApplicationStatus, ApplicationEvent, LifecycleActor, ApplicationStatus][] = [
  ['draft', 'submit', 'candidate', 'submitted'],
  ['rejected', 'resubmit', 'candidate', 'submitted'],
  ['submitted', 'withdraw', 'candidate', 'draft'],
  ['submitted', 'approve', 'admin', 'approved'],
  ['submitted', 'approve', 'reviewer', 'approved'],
  ['submitted', 'reject', 'admin', 'rejected'],
  ['submitted', 'reject', 'reviewer', 'rejected'],
  ['submitted', 'rejectFinal', 'admin', 'rejectedFinal'],
  ['submitted', 'rejectFinal', 'reviewer', 'rejectedFinal'],
  ['approved', 'confirm', 'candidate', 'confirmed'],
  ['approved', 'pay', 'system', 'confirmed'],
  ['expired', 'pay', 'system', 'confirmed'],
  ['approved', 'waive', 'admin', 'confirmed'],
  ['approved', 'waive', 'reviewer', 'confirmed'],
  ['expired', 'waive', 'admin', 'confirmed'],
  ['expired', 'waive', 'reviewer', 'confirmed'],
  ['approved', 'expire', 'system', 'expired'],
  ['confirmed', 'switch', 'candidate', 'confirmed'],
  ['confirmed', 'optOut', 'candidate', 'cancelled'],
  ['confirmed', 'closeOut', 'system', 'cancelled'],
  ['confirmed', 'cancel', 'admin', 'cancelled'],
];

/** Firing these again is a repeat: answered as it is, nothing written. */
const REPEATS: [ApplicationStatus, ApplicationEvent][] = [
  ['submitted', 'submit'],
  ['approved', 'submit'],
  ['submitted', 'resubmit'],
  ['approved', 'resubmit'],
  ['draft', 'withdraw'],
  ['confirmed', 'confirm'],
  ['confirmed', 'pay'],
  ['confirmed', 'waive'],
  ['expired', 'expire'],
  ['cancelled', 'optOut'],
  ['cancelled', 'closeOut'],
  ['cancelled', 'cancel'],
];

/** Who may fire what, by hand. */
const MAY_FIRE: Record<ApplicationEvent, LifecycleActor[]> = {
  submit: ['candidate'],
  resubmit: ['candidate'],
  withdraw: ['candidate'],
  approve: ['admin', 'reviewer'],
  reject: ['admin', 'reviewer'],
  rejectFinal: ['admin', 'reviewer'],
  confirm: ['candidate'],
  pay: ['system'],
  waive: ['admin', 'reviewer'],
  expire: ['system'],
  switch: ['candidate'],
  optOut: ['candidate'],
  closeOut: ['system'],
  cancel: ['admin'],
};

/** The refusal of each event from a status it does not leave (and is no repeat in). */
const REFUSED_FROM: [ApplicationEvent, ApplicationStatus, string][] = [
  ['submit', 'rejected', '当前状态不能提交报名，请刷新后再试'],
  ['resubmit', 'draft', '只有审核未通过的报名可以修改后重新提交'],
  ['withdraw', 'approved', '报名已审核，不能撤回'],
  ['withdraw', 'rejected', '报名已审核，不能撤回'],
  ['approve', 'draft', STILL_UNDER_REVIEW],
  ['approve', 'approved', STILL_UNDER_REVIEW],
  ['approve', 'rejected', STILL_UNDER_REVIEW],
  ['reject', 'draft', STILL_UNDER_REVIEW],
  ['reject', 'approved', STILL_UNDER_REVIEW],
  ['reject', 'rejected', STILL_UNDER_REVIEW],
  ['rejectFinal', 'rejected', STILL_UNDER_REVIEW],
  ['rejectFinal', 'rejectedFinal', STILL_UNDER_REVIEW],
];

describe('application lifecycle: the machine', () => {
  it('declares the states and events the product has today', () => {
    expect([...APPLICATION_STATUSES]).toEqual([
      'draft',
      'submitted',
      'approved',
      'rejected',
      'rejectedFinal',
      'confirmed',
      'expired',
      'cancelled',
    ]);
    expect(APPLICATION_EVENTS).toEqual([
      'submit',
      'resubmit',
      'withdraw',
      'approve',
      'reject',
      'rejectFinal',
      'confirm',
      'pay',
      'waive',
      'expire',
      'switch',
      'optOut',
      'closeOut',
      'cancel',
    ]);
    expect(INITIAL_STATUS).toBe('draft');
    expect(APPLICATION_STATUS_LABEL).toEqual({
      draft: '草稿',
      submitted: '待审核',
      approved: '审核通过',
      rejected: '审核未通过',
      rejectedFinal: '不通过（不得再报）',
      confirmed: '已确认',
      expired: '报名无效',
      cancelled: '已取消',
    });
  });

  it('names only real statuses, and every status can be reached from the first one', () => {
    const known = new Set<string>(APPLICATION_STATUSES);
    for (const t of Object.values(APPLICATION_TRANSITIONS)) {
      for (const s of [...t.from, t.to, ...t.repeatIn]) expect(known.has(s)).toBe(true);
      expect(t.label).toMatch(/\p{Script=Han}/u);
      expect(t.refused).toMatch(/\p{Script=Han}/u);
    }
    const reached = new Set<ApplicationStatus>([INITIAL_STATUS]);
    for (let grew = true; grew;) {
      grew = false;
      for (const t of Object.values(APPLICATION_TRANSITIONS)) {
        if (t.from.some((s) => reached.has(s)) && !reached.has(t.to)) {
          reached.add(t.to);
          grew = true;
        }
      }
    }
    expect([...reached].sort()).toEqual([...APPLICATION_STATUSES].sort());
  });

  it('derives who edits, what staff see and what counts as applying from the states', () => {
    expect(CANDIDATE_EDITABLE_STATUSES).toEqual(['draft', 'rejected']);
    expect(STAFF_VISIBLE_STATUSES).toEqual(['submitted', 'approved', 'rejected', 'rejectedFinal', 'confirmed', 'expired', 'cancelled']);
    expect(APPLICANT_STATUSES).toEqual(['submitted', 'approved', 'confirmed']);
    expect(formLock('submitted')).toBe('报名信息已提交待审核，如需修改请先撤回');
    expect(formLock('approved')).toBe('报名已审核通过，信息已锁定');
    expect([formLock('draft'), formLock('rejected'), formLock(null), formLock(undefined)]).toEqual([null, null, null, null]);
  });

  it('a final rejection is the end for the candidate: no edit, resubmit, withdrawal or submit, in any phase', () => {
    const final = '报名审核不通过（不得再报），不能修改、撤回或重新提交';
    for (const phase of ['registering', 'reviewing', 'closed'] as const) {
      for (const event of ['resubmit', 'submit', 'withdraw', 'confirm'] as const) {
        expect(canFire('rejectedFinal', event, 'candidate', { phase, reason: 'x', fee: 0 }), `${event} ${phase}`).toEqual({
          ok: false,
          msg: final,
          why: 'state',
        });
      }
      expect(availableEvents('rejectedFinal', 'candidate', { phase })).toEqual([]);
      expect(canEdit('rejectedFinal', { phase: 'registering' })).toEqual({
        ok: false,
        msg: '报名审核不通过（不得再报），不能修改或重新提交',
      });
    }
    // The plain rejection stays the candidate's to fix and resubmit while registration is open.
    expect(canFire('rejected', 'resubmit', 'candidate', { phase: 'registering' })).toEqual({ ok: true, to: 'submitted', repeat: false });
    expect(canFire('submitted', 'rejectFinal', 'reviewer', { reason: ' ' })).toEqual({
      ok: false,
      msg: '审核不通过时必须填写原因',
      why: 'reason',
    });
  });

  it('is plain data without zod, so the candidate site’s shell can load it', () => {
    const source = readFileSync(new URL('../src/registration/lifecycle.ts', import.meta.url), 'utf8');
    const imports = source.split('\n').filter((l) => l.startsWith('import'));
    expect(imports.every((l) => l.startsWith('import type'))).toBe(true);
    expect(source).not.toMatch(/from 'zod'/);
  });
});

describe('application lifecycle: canFire', () => {
  it.each(ALLOWED)('%s --%s by %s--> %s', (from, event, actor, to) => {
    expect(canFire(from, event, actor, fits(event))).toEqual({ ok: true, to, repeat: false });
  });

  it('allows nothing else: every other status × event × actor is a repeat or a refusal', () => {
    for (const status of APPLICATION_STATUSES) {
      for (const event of APPLICATION_EVENTS) {
        for (const actor of ACTORS) {
          const v = canFire(status, event, actor, fits(event));
          const allowed = ALLOWED.some(([f, e, a]) => f === status && e === event && a === actor);
          const repeat = REPEATS.some(([s, e]) => s === status && e === event) && MAY_FIRE[event].includes(actor);
          if (allowed) expect(v).toMatchObject({ ok: true, repeat: false });
          else if (repeat) expect(v, `${status} ${event} ${actor}`).toEqual({ ok: true, to: status, repeat: true });
          else expect(v, `${status} ${event} ${actor}`).toMatchObject({ ok: false, msg: expect.stringMatching(/\p{Script=Han}/u) });
        }
      }
    }
  });

  it('refuses an actor the event is not for, before anything else', () => {
    for (const event of APPLICATION_EVENTS) {
      for (const actor of ACTORS.filter((a) => !MAY_FIRE[event].includes(a))) {
        for (const status of APPLICATION_STATUSES) {
          expect(canFire(status, event, actor, open)).toEqual({
            ok: false,
            msg: `没有权限执行「${APPLICATION_TRANSITIONS[event].label}」`,
            why: 'actor',
          });
        }
      }
    }
  });

  it.each(REFUSED_FROM)('refuses %s from %s: %s', (event, from, msg) => {
    expect(canFire(from, event, MAY_FIRE[event][0]!, fits(event))).toEqual({ ok: false, msg, why: 'state' });
  });

  it('lets the candidate submit, resubmit and withdraw only while registration is open', () => {
    const cases: [ApplicationStatus, ApplicationEvent, string][] = [
      ['draft', 'submit', '提交报名'],
      ['rejected', 'resubmit', '重新提交报名'],
      ['submitted', 'withdraw', '撤回报名'],
    ];
    for (const [status, event, what] of cases) {
      expect(canFire(status, event, 'candidate', { phase: 'upcoming' })).toEqual({
        ok: false,
        msg: `报名尚未开始，暂不能${what}`,
        why: 'guard',
      });
      for (const phase of ['reviewing', 'confirming', 'closed'] as const) {
        expect(canFire(status, event, 'candidate', { phase })).toEqual({ ok: false, msg: `报名已截止，不能${what}`, why: 'guard' });
      }
      // A phase nobody said is not taken for an open one.
      expect(canFire(status, event, 'candidate', {})).toMatchObject({ ok: false, why: 'guard' });
    }
  });

  it('answers a repeated submit or withdraw as done, even after the deadline', () => {
    expect(canFire('submitted', 'submit', 'candidate', { phase: 'closed' })).toEqual({ ok: true, to: 'submitted', repeat: true });
    expect(canFire('approved', 'submit', 'candidate', { phase: 'closed' })).toEqual({ ok: true, to: 'approved', repeat: true });
    expect(canFire('draft', 'withdraw', 'candidate', { phase: 'reviewing' })).toEqual({ ok: true, to: 'draft', repeat: true });
  });

  it('lets staff decide in any phase, and a rejection needs a reason', () => {
    for (const phase of ['registering', 'reviewing', 'closed'] as const) {
      expect(canFire('submitted', 'approve', 'reviewer', { phase })).toEqual({ ok: true, to: 'approved', repeat: false });
    }
    for (const reason of [undefined, '', '   ']) {
      expect(canFire('submitted', 'reject', 'reviewer', { reason })).toEqual({ ok: false, msg: '审核不通过时必须填写原因', why: 'reason' });
    }
    expect(canFire('submitted', 'reject', 'admin', { reason: '学历不符' })).toEqual({ ok: true, to: 'rejected', repeat: false });
    expect(canFire('submitted', 'approve', 'admin', {})).toEqual({ ok: true, to: 'approved', repeat: false });
  });
});

describe('application lifecycle: what each side may do next', () => {
  it('availableEvents: the candidate’s and the console’s buttons', () => {
    expect(availableEvents('draft', 'candidate', open)).toEqual(['submit']);
    expect(availableEvents('rejected', 'candidate', open)).toEqual(['resubmit']);
    expect(availableEvents('submitted', 'candidate', open)).toEqual(['withdraw']);
    expect(availableEvents('submitted', 'candidate', { phase: 'reviewing' })).toEqual([]);
    expect(availableEvents('approved', 'candidate', open)).toEqual([]);
    expect(availableEvents('approved', 'candidate', { phase: 'confirming', fee: 0 })).toEqual(['confirm']);
    expect(availableEvents('approved', 'candidate', { phase: 'confirming', fee: 5000 })).toEqual([]);
    // Staff need no phase: decisions have no window today.
    expect(availableEvents('submitted', 'reviewer')).toEqual(['approve', 'reject', 'rejectFinal']);
    expect(availableEvents('submitted', 'admin')).toEqual(['approve', 'reject', 'rejectFinal']);
    for (const s of ['draft', 'approved', 'rejected', 'confirmed', 'expired', 'cancelled'] as const)
      expect(availableEvents(s, 'reviewer')).toEqual([]);
    // The server's own steps need their facts (the deadline passed, a payment in time): only close-out has none.
    for (const s of APPLICATION_STATUSES) expect(availableEvents(s, 'system', open)).toEqual(s === 'confirmed' ? ['closeOut'] : []);
  });

  it('eventFrom: the candidate’s one 提交 button means submit or resubmit', () => {
    expect(eventFrom('draft', ['submit', 'resubmit'])).toBe('submit');
    expect(eventFrom('rejected', ['submit', 'resubmit'])).toBe('resubmit');
    expect(eventFrom('submitted', ['submit', 'resubmit'])).toBe('submit');
    expect(eventFrom('approved', ['submit', 'resubmit'])).toBe('submit');
  });

  it('canEdit: the form is the candidate’s while a draft or rejected, and only while registration is open', () => {
    for (const s of [null, 'draft', 'rejected'] as const) expect(canEdit(s, open)).toEqual({ ok: true });
    expect(canEdit('submitted', open)).toEqual({ ok: false, msg: '报名信息已提交待审核，如需修改请先撤回' });
    expect(canEdit('approved', open)).toEqual({ ok: false, msg: '报名已审核通过，信息已锁定' });
    expect(canEdit('draft', { phase: 'upcoming' })).toEqual({ ok: false, msg: '报名尚未开始，暂不能修改报名信息' });
    expect(canEdit(null, { phase: 'closed' })).toEqual({ ok: false, msg: '报名已截止，不能修改报名信息' });
    expect(canEdit('approved', { phase: 'closed' })).toEqual({ ok: false, msg: '报名已截止，不能修改报名信息' });
  });

  it('confirmation: one click only without a fee and inside the window; a payment or waiver counts by when it happened', () => {
    expect(canFire('approved', 'confirm', 'candidate', { phase: 'confirming', fee: 3000 })).toEqual({
      ok: false,
      msg: '本考试需缴纳报名费，请先完成缴费',
      why: 'guard',
    });
    expect(canFire('approved', 'confirm', 'candidate', { phase: 'reviewing', fee: 0 })).toMatchObject({
      ok: false,
      msg: '报名确认尚未开始，暂不能确认报名',
    });
    expect(canFire('approved', 'confirm', 'candidate', { phase: 'closed', fee: 0 })).toMatchObject({
      ok: false,
      msg: '报名确认已截止，不能确认报名',
    });
    const deadline = '2026-12-02T00:00:00.000Z';
    // Paid a second before the deadline, told an hour after it (the application had expired meanwhile).
    expect(canFire('expired', 'pay', 'system', { at: '2026-12-01T23:59:59.000Z', deadline })).toEqual({
      ok: true,
      to: 'confirmed',
      repeat: false,
    });
    expect(canFire('approved', 'pay', 'system', { at: '2026-12-02T00:00:01.000Z', deadline })).toMatchObject({ ok: false, why: 'guard' });
    expect(canFire('approved', 'pay', 'system', {})).toMatchObject({ ok: false, why: 'guard' });
    expect(canFire('approved', 'expire', 'system', { phase: 'confirming' })).toEqual({ ok: false, msg: '报名确认尚未截止', why: 'guard' });
    expect(canFire('confirmed', 'switch', 'candidate', { switching: false })).toMatchObject({ ok: false, why: 'guard' });
  });

  it('history names staff by role as staff', () => {
    expect(ACTORS.map(historyActor)).toEqual(['candidate', 'staff', 'staff', 'system']);
  });
});

describe('staff unit scope', () => {
  it('an admin sees every unit; a reviewer the listed ones; an empty list none', () => {
    expect(unitInScope(staffUnitScope('admin', []), '任何单位')).toBe(true);
    expect(unitInScope(staffUnitScope('admin', []), null)).toBe(true);
    const one = staffUnitScope('reviewer', ['市财政局']);
    expect(unitInScope(one, '市财政局')).toBe(true);
    expect(unitInScope(one, '市教育局')).toBe(false);
    expect(unitInScope(one, null)).toBe(false);
    const none = staffUnitScope('reviewer', []);
    expect(unitInScope(none, '市财政局')).toBe(false);
    expect(unitInScope(none, '')).toBe(false);
  });
});
