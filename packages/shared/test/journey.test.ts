import { describe, expect, it } from 'vitest';
import { applicationNumber, formAsShown, graduationDateProblem, latestGraduationMonth, profileOf } from '../src/registration/applications';
import { countdownText, timeLeft } from '../src/deadline';
import type { Exam } from '../src/content/exams';
import type { MyApplication } from '../src/registration/journey';
import { historyWords, journeyOf, journeyStepTitles, photoLockOf } from '../src/registration/journey-steps';
import { OPEN_REQUIREMENTS, positionMatches } from '../src/content/positions';

const exam: Exam = {
  id: 1,
  name: '示范考试',
  phase: 'registering',
  registrationStart: '2026-11-01T00:00:00.000Z',
  registrationEnd: '2026-11-30T09:00:00.000Z',
  reviewStart: '2026-11-01T00:00:00.000Z',
  reviewEnd: '2026-12-05T09:00:00.000Z',
  confirmationStart: '2026-12-06T00:00:00.000Z',
  confirmationEnd: '2026-12-10T00:00:00.000Z',
  config: { fields: [], required: [] },
  fee: 5000,
  openingRatio: 0,
  waiverCategories: [],
  switchStart: null,
  switchEnd: null,
};
const app = (patch: Partial<MyApplication>): MyApplication => ({
  id: 1,
  exam,
  status: 'draft',
  reason: '',
  version: 1,
  position: null,
  pledged: true,
  missing: [],
  canEdit: true,
  canWithdraw: false,
  submittedAt: null,
  updatedAt: '2026-11-20T00:00:00.000Z',
  applicationNo: null,
  positionCancelled: false,
  ticketPrint: null,
  ...patch,
});
const position = { id: 3, code: 'A1', name: '软件开发', unit: '市大数据中心' };

describe('the candidate journey', () => {
  it('walks 须知 → 信息 → 岗位 → 核对 → 审核, each with its next step and deadline', () => {
    expect(journeyOf(exam, null, false)).toMatchObject({ step: 0, action: { path: '/application-instructions' } });
    expect(journeyOf(exam, app({ pledged: false }), false).step).toBe(0);
    const info = journeyOf(exam, app({ missing: ['学位'] }), false);
    expect(info).toMatchObject({
      step: 1,
      next: '完成报考信息：还需填写学位、证件照',
      deadline: { label: '报名截止', at: exam.registrationEnd },
    });
    expect(journeyOf(exam, app({}), true)).toMatchObject({ step: 2, action: { path: '/job-positions' } });
    expect(journeyOf(exam, app({ position }), true)).toMatchObject({ step: 3, action: { label: '去核对提交', path: '/confirm-info' } });
    expect(journeyOf(exam, app({ position, status: 'submitted' }), true)).toMatchObject({
      step: 4,
      stepStatus: 'wait',
      deadline: { label: '资格审查截止', at: exam.reviewEnd },
      action: null,
    });
    expect(journeyOf(exam, app({ position, status: 'rejected', reason: 'x' }), true)).toMatchObject({
      step: 4,
      stepStatus: 'error',
      action: { label: '修改并重新提交', path: '/fill-info' },
    });
    expect(journeyOf(exam, app({ position, status: 'approved' }), true)).toMatchObject({
      step: 5,
      stepStatus: 'wait',
      deadline: { label: '报名确认开始', at: exam.confirmationStart },
    });
  });

  it('leads an approved candidate to the confirmation, and names what ended an application', () => {
    const confirming = { ...exam, phase: 'confirming' as const };
    expect(journeyOf(confirming, app({ position, status: 'approved', exam: confirming }), true)).toEqual({
      step: 5,
      headline: null,
      stepStatus: 'process',
      next: '资格审查已通过，请在截止前缴纳报名费 ¥50.00（或申请减免），逾期报名无效',
      deadline: { label: '报名确认截止', at: exam.confirmationEnd },
      action: { label: '去缴费', path: '/current-exam' },
    });
    const free = { ...confirming, fee: 0 };
    expect(journeyOf(free, app({ position, status: 'approved', exam: free }), true)).toMatchObject({
      next: '资格审查已通过，请在截止前确认报名，逾期报名无效',
      action: { label: '去确认' },
    });
    expect(journeyOf(confirming, app({ position, status: 'confirmed' }), true)).toMatchObject({
      step: 6,
      stepStatus: 'wait',
      next: '报名已确认，请关注准考证打印时间和通知公告',
      action: null,
    });
    expect(journeyOf(confirming, app({ position, status: 'expired' }), true)).toMatchObject({
      stepStatus: 'error',
      next: '未在报名确认截止前完成确认，报名无效',
    });
    expect(journeyOf(confirming, app({ position, status: 'cancelled' }), true).next).toContain('原路退回');
  });

  it('says when registration has not begun or is over for an unsubmitted draft', () => {
    expect(journeyOf({ ...exam, phase: 'upcoming' }, null, true)).toMatchObject({ deadline: { label: '报名开始' }, action: null });
    expect(journeyOf({ ...exam, phase: 'reviewing' }, app({}), true)).toMatchObject({ stepStatus: 'error', action: null });
  });

  it('counts down in one format everywhere: days, then hh:mm:ss, never promising more time than there is', () => {
    const now = '2026-11-27T09:00:00.000Z';
    expect(timeLeft('2026-11-30T09:00:00.000Z', now)).toBe('3 天 00:00:00');
    expect(timeLeft('2026-11-29T12:15:20.900Z', now)).toBe('2 天 03:15:20');
    expect(timeLeft('2026-11-27T09:23:50.000Z', now)).toBe('00:23:50');
    expect(timeLeft('2026-11-27T09:00:00.500Z', now)).toBe('00:00:00');
    expect(timeLeft(now, now)).toBeNull();
    expect(countdownText({ label: '报名截止', at: '2026-11-27T09:23:50.000Z' }, now)).toBe('剩余 00:23:50');
  });

  it('heads a confirmed application with its cancelled post until the switch window closes, then with its ticket', () => {
    const closed: Exam = {
      ...exam,
      phase: 'closed',
      switchStart: '2026-12-05T10:00:00.000Z',
      switchEnd: '2026-12-05T13:40:00.000Z',
    };
    const cancelled = app({ exam: closed, position, status: 'confirmed', positionCancelled: true });
    const during = journeyOf(closed, cancelled, true, '2026-12-05T11:00:00.000Z');
    expect(during).toMatchObject({
      step: 6,
      stepStatus: 'error',
      headline: '岗位已取消，请于12月5日 21:40前改报或放弃',
      deadline: { label: '改报截止', at: closed.switchEnd },
      action: { label: '去改报', path: '/current-exam' },
    });
    // Before the window opens the headline already says until when; once it closed it is gone.
    expect(journeyOf(closed, cancelled, true, '2026-12-05T09:00:00.000Z')).toMatchObject({ headline: during.headline, action: null });
    expect(journeyOf(closed, cancelled, true, '2026-12-05T14:00:00.000Z').headline).toBeNull();

    const ticketed = app({
      exam: closed,
      position,
      status: 'confirmed',
      ticketPrint: { start: '2026-12-10T00:00:00.000Z', end: '2026-12-20T00:00:00.000Z' },
    });
    expect(journeyOf(closed, ticketed, true, '2026-12-09T00:00:00.000Z')).toMatchObject({
      step: 6,
      stepStatus: 'wait',
      headline: null,
      next: '准考证将于12月10日 08:00开放打印',
    });
    expect(journeyOf(closed, ticketed, true, '2026-12-11T00:00:00.000Z')).toMatchObject({
      step: 6,
      stepStatus: 'process',
      headline: '准考证已可打印',
      action: { label: '打印准考证' },
      deadline: { label: '准考证打印截止' },
    });
    expect(journeyOf(closed, ticketed, true, '2026-12-21T00:00:00.000Z')).toMatchObject({ step: 7, headline: null });
  });

  it('names the 报名确认 step 缴费 with a fee and 确认 without one; 核对 is checking the form', () => {
    expect(journeyStepTitles(exam)).toEqual(['须知', '信息', '岗位', '核对', '审核', '缴费', '准考证', '成绩']);
    expect(journeyStepTitles({ fee: 0 })[5]).toBe('确认');
  });

  it('does not ask for a phone number the form shows filled from the account', () => {
    expect(formAsShown({}, { mobile: '13800138000' })).toEqual({ contactPhone: '13800138000' });
    expect(formAsShown({ contactPhone: '13900139000' }, { mobile: '13800138000' })).toEqual({ contactPhone: '13900139000' });
    expect(formAsShown({ contactPhone: ' ' }, null)).toEqual({ contactPhone: ' ' });
  });

  it('numbers an application by year, exam code and running number', () => {
    expect(applicationNumber(2026, '01', 23)).toBe('2601000023');
    expect(applicationNumber(2027, '7', 123456)).toBe('2707123456');
  });

  it('names each step of the history by what happened: a withdrawal reads 已撤回', () => {
    const h = (status: MyApplication['status']) => ({ status });
    expect(historyWords([h('draft'), h('submitted'), h('draft'), h('submitted'), h('rejected'), h('submitted'), h('approved')])).toEqual([
      '开始填写报名',
      '提交报名',
      '已撤回',
      '提交报名',
      '审核未通过',
      '重新提交',
      '审核通过',
    ]);
  });

  it('fixes the photo while an application of an exam not yet over is under review or approved', () => {
    expect(
      photoLockOf([
        { status: 'draft', exam },
        { status: 'rejected', exam },
      ]),
    ).toBeNull();
    expect(photoLockOf([{ status: 'submitted', exam }])).toMatch(/^「示范考试」报名信息已提交待审核.*暂不能更换$/);
    expect(photoLockOf([{ status: 'approved', exam: { ...exam, phase: 'closed' } }])).toBeNull();
  });
});

describe('graduation dates and profiles', () => {
  it('accepts graduation up to the coming summer', () => {
    expect(latestGraduationMonth('2026-11-23')).toBe('2027-08');
    expect(latestGraduationMonth('2026-03-01')).toBe('2026-08');
    expect(graduationDateProblem('2027-07', '2026-11-23')).toBeNull();
    expect(graduationDateProblem('2027-09', '2026-11-23')).toBe('毕业时间不能晚于 2027-08（应届毕业生请填写预计毕业时间）');
    expect(graduationDateProblem('2030-06', '2026-03-01')).toMatch(/不能晚于 2026-08/);
  });

  it('carries the person, not the exam, into the next application', () => {
    expect(profileOf({ school: '浙大', major: '', pledge: true, workYears: 3, contactPhone: '13800000000' })).toEqual({
      school: '浙大',
      workYears: 3,
      contactPhone: '13800000000',
    });
  });
});

describe('position search', () => {
  const p = {
    name: '软件开发',
    code: 'A1',
    unit: '市大数据中心',
    requirements: { ...OPEN_REQUIREMENTS, majors: ['计算机科学与技术', '软件工程'] },
  };
  it('finds positions by name, code, unit or the majors they accept', () => {
    expect(positionMatches(p, '软件')).toBe(true);
    expect(positionMatches(p, 'a1')).toBe(true);
    expect(positionMatches(p, '计算机')).toBe(true);
    expect(positionMatches(p, '软件工程')).toBe(true);
    expect(positionMatches({ ...p, requirements: { ...p.requirements, majors: ['计算机'] } }, '计算机科学与技术')).toBe(true);
    expect(positionMatches(p, '会计')).toBe(false);
  });
});
