import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { DEMO_POSITIONS } from './data';
import { seedDemoReminder } from './reminders';
import { confirmedSteps, demoStage, type DemoStageOptions } from './writes';

export { DEMO_CANDIDATE_PASSWORD } from './writes';

const CANDIDATES: { name: string; first17: string; mobile: string; submitted?: boolean }[] = [
  { name: '李明', first17: '33010619950314231', mobile: '13900001001' },
  { name: '王芳', first17: '33010619960520242', mobile: '13900001002' },
  // Still waiting for review: staff approve him in the console, then he confirms.
  { name: '赵磊', first17: '33010619940808253', mobile: '13900001003', submitted: true },
];

const FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江工业大学',
  major: '会计学',
  graduationDate: '2018-06',
  workYears: 3,
  politicalStatus: '共青团员',
  contactPhone: '13900001001',
  address: '杭州市西湖区',
  pledge: true,
};

/**
 * An exam in its confirmation window with approved candidates (and one still to review), so a fresh `npm start` shows
 * payment, waivers and close-out: a 50-yuan fee, opening ratio 3, two waiver categories and a
 * switch window after the confirmation deadline. Its candidates sign in with their ID numbers
 * and DEMO_CANDIDATE_PASSWORD.
 */
export async function seedConfirmationDemo(trx: Kysely<DB>, opts: DemoStageOptions): Promise<void> {
  const stage = await demoStage(trx, opts);
  const { at } = stage;
  const name = '示范市 2026 年度事业单位招聘（报名确认阶段）';
  const examId = await stage.exam({
    name,
    registration_start: at(-30),
    registration_end: at(-20),
    review_start: at(-30),
    review_end: at(-10),
    confirmation_start: at(-2),
    confirmation_end: at(5),
    fee: 5000,
    opening_ratio: 3,
    waiver_categories: JSON.stringify(['dibao', 'tekun']),
    switch_start: at(7),
    switch_end: at(10),
  });
  let positionId = 0;
  for (const [i, p] of DEMO_POSITIONS.filter((x) => x.name === '财务会计' || x.name === '行政辅助').entries()) {
    const id = await stage.position(examId, `202604${String(i + 1).padStart(3, '0')}`, p);
    if (p.name === '财务会计') positionId = id;
  }
  for (const [i, c] of CANDIDATES.entries()) {
    const candidate = await stage.candidate(c);
    // Approved twelve days ago; one still waits for review.
    const steps = confirmedSteps(at, [-26, -25, -12, 0]).slice(0, c.submitted ? 2 : 3);
    const applicationId = await stage.application({
      examId,
      candidateId: candidate.id,
      positionId,
      form: { ...FORM, contactPhone: c.mobile },
      steps,
    });
    // The first of them has been reminded to confirm (我的消息 and 短信记录 show it).
    if (i === 0)
      await seedDemoReminder(trx, {
        officeId: opts.officeId,
        examId,
        examName: name,
        applicationId,
        candidateId: candidate.id,
        mobile: c.mobile,
        deadline: at(5),
        timeZone: opts.timeZone,
        at: at(0),
      });
  }
}
