import { describe, expect, it } from 'vitest';
import { missingRequired } from '../src/registration/applications';
import { examPhase } from '../src/content/exams';
import { ageOn, checkEligibility, OPEN_REQUIREMENTS, type PositionRequirements } from '../src/content/positions';

const open: PositionRequirements = OPEN_REQUIREMENTS;

describe('eligibility', () => {
  it('accepts anyone for an open position', () => {
    expect(checkEligibility(open, { birthday: '1960-01-01', sex: '女' }, '2026-11-22')).toEqual({ eligible: true, reasons: [] });
  });

  it('names every unmet requirement', () => {
    const req: PositionRequirements = {
      minEducation: '硕士研究生',
      majors: ['心理学'],
      maxAge: 35,
      sex: '男',
      politicalStatus: '中共党员',
      workYears: 2,
      note: '',
    };
    const r = checkEligibility(
      req,
      { education: '本科', major: '会计学', politicalStatus: '群众', workYears: 1, birthday: '1980-05-01', sex: '女' },
      '2026-11-22',
    );
    expect(r.eligible).toBe(false);
    expect(r.reasons).toEqual([
      '学历要求：硕士研究生及以上；您的学历：本科',
      '专业要求：心理学；您的专业：会计学',
      '年龄要求：35周岁以下；您的年龄：46周岁',
      '性别要求：男；您的性别：女',
      '政治面貌要求：中共党员（含预备党员）；您的政治面貌：群众',
      '工作年限要求：2年以上；您的工作年限：1年',
    ]);
  });

  it('counts a higher education, a probationary member and the birthday itself', () => {
    const req: PositionRequirements = { ...open, minEducation: '本科', politicalStatus: '中共党员', maxAge: 35 };
    expect(
      checkEligibility(req, { education: '博士研究生', politicalStatus: '中共预备党员', birthday: '1991-11-22', sex: '男' }, '2026-11-22')
        .eligible,
    ).toBe(true);
    expect(ageOn('1991-11-22', '2026-11-22')).toBe(35);
    expect(ageOn('1991-11-23', '2026-11-22')).toBe(34);
  });

  it('asks for the education and major when they are not filled in yet', () => {
    const r = checkEligibility({ ...open, minEducation: '大专', majors: ['护理学'] }, { birthday: '2000-01-01', sex: '女' }, '2026-11-22');
    expect(r.reasons).toEqual(['学历要求：大专及以上；您尚未填写学历', '专业要求：护理学；您尚未填写专业']);
  });
});

describe('exam phase from windows', () => {
  const w = {
    registrationStart: '2026-11-01T00:00:00.000Z',
    registrationEnd: '2026-11-30T00:00:00.000Z',
    reviewStart: '2026-11-01T00:00:00.000Z',
    reviewEnd: '2026-12-03T00:00:00.000Z',
    confirmationStart: '2026-12-05T00:00:00.000Z',
    confirmationEnd: '2026-12-08T00:00:00.000Z',
  };
  it.each([
    ['2026-10-31T23:59:59.999Z', 'upcoming'],
    ['2026-11-01T00:00:00.000Z', 'registering'],
    ['2026-11-30T00:00:00.000Z', 'registering'],
    ['2026-12-01T00:00:00.000Z', 'reviewing'],
    ['2026-12-04T00:00:00.000Z', 'reviewing'],
    ['2026-12-06T00:00:00.000Z', 'confirming'],
    ['2026-12-09T00:00:00.000Z', 'closed'],
  ])('%s is %s', (now, phase) => {
    expect(examPhase(w, now)).toBe(phase);
  });
});

it('lists the required fields left empty, by label', () => {
  expect(missingRequired({ education: '本科', school: '  ' }, ['education', 'school', 'major'])).toEqual(['毕业院校', '所学专业']);
});
