import { z } from 'zod';
import { LATER_STATUSES } from './later-stages-lifecycle';

/*
 * The stages after the written exam (后续环节): 资格复审 of the interview list's entrants (pass or
 * fail), 面试 scores imported like the written ones and combined with the written total by a
 * weight into the final ranking, 体检 of the best by that ranking (one per post, ties included,
 * the next by rank stepping in for one who fails or gives up: 递补), and 拟录用 of those who pass.
 * Each stage is published (公示) on its own; before that its results are staff-only.
 */

export const LATER_STAGES = ['qualification', 'interview', 'medical', 'hire'] as const;
export type LaterStage = (typeof LATER_STAGES)[number];
export const LATER_STAGE_TEXT: Readonly<Record<LaterStage, string>> = {
  qualification: '资格复审',
  interview: '面试',
  medical: '体检',
  hire: '拟录用',
};
/** What a public list of each stage is called. */
export const STAGE_LIST_TEXT: Readonly<Record<LaterStage, string>> = {
  qualification: '资格复审合格人员名单',
  interview: '综合成绩排名',
  medical: '体检人员名单',
  hire: '拟录用人员名单',
};

/** pass / fail (资格复审, 体检; 放弃 is recorded as `gaveUp`), or the interview's mark. */
export const STAGE_OUTCOMES = ['pass', 'fail', 'gaveUp', 'score', 'absent', 'void'] as const;
export type StageOutcome = (typeof STAGE_OUTCOMES)[number];
export const STAGE_OUTCOME_TEXT: Readonly<Record<StageOutcome, string>> = {
  pass: '合格',
  fail: '不合格',
  gaveUp: '放弃',
  score: '已评分',
  absent: '缺考',
  void: '违纪',
};

/** The column of the interview score sheet (beside 准考证号). */
export const INTERVIEW_COLUMN = '面试成绩';
export const INTERVIEW_FULL_MARKS = 100;

const examId = z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' });

export const saveStageWeightSchema = z.object({
  examId,
  interviewWeight: z
    .number({ message: '请填写面试成绩所占比例' })
    .int({ message: '面试成绩所占比例应为整数' })
    .min(0, { message: '面试成绩所占比例应在 0 至 100 之间' })
    .max(100, { message: '面试成绩所占比例应在 0 至 100 之间' }),
});
export type SaveStageWeightInput = z.input<typeof saveStageWeightSchema>;

/** 资格复审 or 体检 results for some of the stage's candidates, by ticket number. */
export const recordStageResultsSchema = z.object({
  examId,
  stage: z.enum(['qualification', 'medical'], { message: '请选择资格复审或体检' }),
  results: z
    .array(
      z.object({
        ticketNo: z.string({ message: '请填写准考证号' }).trim().min(1, { message: '请填写准考证号' }).max(30),
        outcome: z.enum(['pass', 'fail', 'gaveUp'], { message: '结果应为合格、不合格或放弃' }),
      }),
    )
    .min(1, { message: '请至少填写一位考生的结果' })
    .max(5000, { message: '一次最多提交 5000 位考生的结果' }),
});
export type RecordStageResultsInput = z.input<typeof recordStageResultsSchema>;

export const publishStageSchema = z.object({ examId, stage: z.enum(LATER_STAGES, { message: '请选择要公布的环节' }) });
export type PublishStageInput = z.input<typeof publishStageSchema>;

export const stageListQuerySchema = z.object({
  examId: z.coerce.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' }),
  stage: z.enum(LATER_STAGES, { message: '请选择环节' }),
});

/** One candidate of a position in the console's view of the later stages. */
export const stageRowSchema = z.object({
  applicationId: z.number().int(),
  ticketNo: z.string(),
  name: z.string(),
  /** The written total (points). */
  written: z.number(),
  qualification: z.enum(['pass', 'fail', 'gaveUp']).nullable(),
  interview: z.object({ outcome: z.enum(['score', 'absent', 'void']), score: z.number().nullable() }).nullable(),
  /** Written and interview by the weight; null without an interview score. */
  combined: z.number().nullable(),
  finalRank: z.number().int().nullable(),
  inMedical: z.boolean(),
  medical: z.enum(['pass', 'fail', 'gaveUp']).nullable(),
  hired: z.boolean(),
  /** Its state in the machine after confirmation: what the console offers for the row is what the machine allows from it. */
  state: z.enum(LATER_STATUSES),
});
export type StageRow = z.infer<typeof stageRowSchema>;

export const stageBoardSchema = z.object({
  examId: z.number().int(),
  interviewWeight: z.number().int(),
  published: z.object({
    qualification: z.string().nullable(),
    interview: z.string().nullable(),
    medical: z.string().nullable(),
    hire: z.string().nullable(),
  }),
  positions: z.array(
    z.object({
      positionId: z.number().int(),
      code: z.string(),
      name: z.string(),
      headcount: z.number().int(),
      rows: z.array(stageRowSchema),
    }),
  ),
});
export type StageBoard = z.infer<typeof stageBoardSchema>;

/** A published list, names masked as on the interview list. */
export const stageListSchema = z.object({
  examId: z.number().int(),
  examName: z.string(),
  stage: z.enum(LATER_STAGES),
  title: z.string(),
  publishedAt: z.string(),
  positions: z.array(
    z.object({
      positionId: z.number().int(),
      positionName: z.string(),
      headcount: z.number().int(),
      list: z.array(
        z.object({
          ticketNo: z.string(),
          name: z.string(),
          written: z.number().nullable(),
          interview: z.number().nullable(),
          combined: z.number().nullable(),
          rank: z.number().int().nullable(),
        }),
      ),
    }),
  ),
});
export type StageList = z.infer<typeof stageListSchema>;

/** The candidate's own results of the published stages. */
export const myStagesSchema = z.array(
  z.object({
    stage: z.enum(LATER_STAGES),
    label: z.string(),
    publishedAt: z.string(),
    /** 合格 / 不合格 / 放弃, 已评分 / 缺考 / 违纪, 进入体检 / 未进入体检, 拟录用 / 未拟录用. */
    result: z.string(),
    interview: z.number().nullable(),
    combined: z.number().nullable(),
    rank: z.number().int().nullable(),
  }),
);
export type MyStages = z.infer<typeof myStagesSchema>;

/**
 * Written and interview combined: each scaled by its share (weights in percent), in hundredths,
 * rounded half up, so the same marks always combine to the same total.
 */
export function combinedScore(writtenHundredths: number, interviewHundredths: number, interviewWeight: number): number {
  return Math.round((writtenHundredths * (100 - interviewWeight) + interviewHundredths * interviewWeight) / 100);
}

/**
 * Who goes to 体检 in one position: by final rank, until `headcount` of them have not failed or
 * given up; everyone tied with the last one taken goes too. So one who fails or gives up is
 * replaced by the next by rank (递补). `entries` are in final-rank order.
 */
export function medicalEntrants(entries: readonly { rank: number; out: boolean }[], headcount: number): boolean[] {
  const take = entries.map(() => false);
  let standing = 0;
  let lastRank: number | null = null;
  for (const [i, e] of entries.entries()) {
    if (standing >= headcount && e.rank !== lastRank) break;
    take[i] = true;
    lastRank = e.rank;
    if (!e.out) standing++;
  }
  return take;
}
