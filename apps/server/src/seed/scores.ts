import { toHundredths, zonedDay } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { createScoresRepository } from '../modules/scores/scores/repository';
import type { Db } from '../db/database';
import type { DB, ScoreMarkKind } from '../db/schema';
import { DEMO_POSITIONS } from './data';
import { confirmedSteps, demoStage, seatAndPublishDemo, type DemoStageOptions } from './writes';

type Mark = number | '缺考' | '违纪';

/**
 * The candidates of the exam at the scores stage, alternately on 财务会计 and 行政辅助 (2 posts
 * each), with their two papers. At a pass line of 60 and 1:1: 林晓 84, then 高远 and 谢文 tied
 * at 75 enter 财务会计's list together (冯涛 65 passes but does not enter); 何雨 78 and 邓洁 71
 * enter 行政辅助's, 韩梅 58 is below the line and 罗琳 was absent. 林晓 signs in to see hers.
 */
export const SCORE_DEMO_CANDIDATES: { name: string; first17: string; mobile: string; marks: [Mark, Mark] }[] = [
  { name: '林晓', first17: '33010819960315411', mobile: '13900003001', marks: [41, 43] },
  { name: '何雨', first17: '33010819970521422', mobile: '13900003002', marks: [38, 40] },
  { name: '高远', first17: '33010819950709433', mobile: '13900003003', marks: [39, 36] },
  { name: '罗琳', first17: '33010819981102444', mobile: '13900003004', marks: ['缺考', '缺考'] },
  { name: '谢文', first17: '33010819960826455', mobile: '13900003005', marks: [37.5, 37.5] },
  { name: '韩梅', first17: '33010819990214466', mobile: '13900003006', marks: [30, 28] },
  { name: '冯涛', first17: '33010819940403477', mobile: '13900003007', marks: [30, 35] },
  { name: '邓洁', first17: '33010819971219488', mobile: '13900003008', marks: [35, 36] },
];

const FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江工业大学',
  major: '会计学',
  graduationDate: '2019-06',
  workYears: 3,
  politicalStatus: '群众',
  contactPhone: '13900003001',
  address: '杭州市拱墅区',
  pledge: true,
};

const markOf = (m: Mark): { mark: ScoreMarkKind; score: number | null } =>
  m === '缺考' ? { mark: 'absent', score: null } : m === '违纪' ? { mark: 'void', score: null } : { mark: 'score', score: toHundredths(m) };

/**
 * An exam two weeks after its written papers, its scores imported, ranked and published (query
 * open), so a fresh `npm start` shows 成绩查询 to its candidates, the public 面试名单 and the
 * console's 成绩管理. Seated, numbered and ranked by the product's own code, inside the seed's
 * transaction. Candidates sign in with their ID numbers and DEMO_CANDIDATE_PASSWORD.
 */
export async function seedScoresDemo(db: Db, trx: Kysely<DB>, opts: DemoStageOptions): Promise<void> {
  const stage = await demoStage(trx, opts);
  const { at, stamp } = stage;
  const examId = await stage.exam({
    name: '示范市 2026 年度事业单位招聘（成绩公布阶段）',
    registration_start: at(-90),
    registration_end: at(-80),
    review_start: at(-90),
    review_end: at(-75),
    confirmation_start: at(-70),
    confirmation_end: at(-60),
    exam_code: '04',
  });
  const positions: number[] = [];
  for (const [i, p] of DEMO_POSITIONS.filter((x) => x.name === '财务会计' || x.name === '行政辅助').entries())
    positions.push(await stage.position(examId, `202604${String(i + 1).padStart(3, '0')}`, p));
  // The papers were sat two weeks ago.
  const subjects = await stage.subjects(examId, zonedDay(at(-14), opts.timeZone));

  const applications: number[] = [];
  for (const [i, c] of SCORE_DEMO_CANDIDATES.entries()) {
    const candidate = await stage.candidate(c);
    const positionId = positions[i % positions.length]!;
    const form = { ...FORM, contactPhone: c.mobile };
    applications.push(
      await stage.application({ examId, candidateId: candidate.id, positionId, form, steps: confirmedSteps(at, [-86, -85, -74, -65]) }),
    );
  }

  await seatAndPublishDemo(
    db,
    trx,
    opts,
    { id: examId, code: '04', seed: 'scores-2026' },
    { name: '示范市第二中学考点', address: '示范市拱墅区湖墅南路 200 号', rooms: 1, seatsPerRoom: 10 },
    { start: at(-21), end: at(-14) },
  );

  // The scores, as an import would write them, then ranked and published by the rules.
  const numbers = new Map(
    (await trx.selectFrom('admission_ticket').select(['application_id', 'ticket_no']).where('exam_id', '=', examId).execute()).map((t) => [
      t.application_id,
      t.ticket_no,
    ]),
  );
  const scores = createScoresRepository(db);
  await scores.saveRule(trx, {
    officeId: opts.officeId,
    examId: examId,
    passLine: toHundredths(60),
    ratio: 1000,
    ratioTable: null,
    bonusEnabled: 0,
    subjects: subjects.map((id) => ({ subject_id: id, full_marks: toHundredths(100), weight: 1000, pass_line: null })),
    at: stamp,
  });
  const totals = SCORE_DEMO_CANDIDATES.map((c, i) => {
    const kinds = c.marks.map((m) => markOf(m).mark);
    return {
      application_id: applications[i]!,
      office_id: opts.officeId,
      exam_id: examId,
      position_id: positions[i % positions.length]!,
      ticket_no: numbers.get(applications[i]!) ?? '',
      status: kinds.includes('void') ? ('void' as const) : kinds.includes('absent') ? ('absent' as const) : ('score' as const),
      bonus: 0,
      total: null,
      qualified: 0,
      updated_at: stamp,
    };
  });
  const marks = SCORE_DEMO_CANDIDATES.flatMap((c, i) =>
    c.marks.map((m, j) => ({ application_id: applications[i]!, subject_id: subjects[j]!, exam_id: examId, ...markOf(m) })),
  );
  await scores.replaceScores(trx, opts.officeId, examId, totals, marks, at(-3));
  await scores.recompute(trx, opts.officeId, examId);
  await scores.publish(trx, examId, at(-1), at(-1));
}
