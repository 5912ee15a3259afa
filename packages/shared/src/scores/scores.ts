import { z } from 'zod';
import { LATER_STATUSES } from './later-stages-lifecycle';

/*
 * Written-exam scores: the rules of an exam (full marks, weights, pass lines, the interview
 * ratio), the calls' shapes, and the pure rules of ranking and of the interview list, which the
 * server applies and the tests check property by property.
 *
 * On the wire points are plain numbers with at most two decimals (72.5) and ratios numbers with
 * at most three (2.5); the database keeps them as integer hundredths and thousandths.
 */

export const SCORE_MARKS = ['score', 'absent', 'void'] as const;
export type ScoreMark = (typeof SCORE_MARKS)[number];
/** How a mark is written in a score cell and shown. */
export const SCORE_MARK_TEXT: Readonly<Record<Exclude<ScoreMark, 'score'>, string>> = { absent: '缺考', void: '违纪' };

export const MAX_FULL_MARKS = 1000;
export const MAX_BONUS = 100;
export const MAX_INTERVIEW_RATIO = 20;

/** 72.5 → 7250; rounds away float noise (72.49999 → 7250). */
export const toHundredths = (points: number): number => Math.round(points * 100);
export const fromHundredths = (h: number): number => h / 100;
export const toThousandths = (n: number): number => Math.round(n * 1000);
export const fromThousandths = (t: number): number => t / 1000;

const decimals = (n: number, places: number) => Math.abs(n * 10 ** places - Math.round(n * 10 ** places)) < 1e-6;

const examId = z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' });
const points = (label: string, max: number) =>
  z
    .number({ message: `请填写${label}` })
    .min(0, { message: `${label}不能小于 0` })
    .max(max, { message: `${label}不能超过 ${max}` })
    .refine((n) => decimals(n, 2), { message: `${label}最多保留两位小数` });
const ratio = z
  .number({ message: '请填写面试比例' })
  .gt(0, { message: '面试比例应大于 0' })
  .max(MAX_INTERVIEW_RATIO, { message: `面试比例不能超过 ${MAX_INTERVIEW_RATIO}` })
  .refine((n) => decimals(n, 3), { message: '面试比例最多保留三位小数' });

/** One row of a ratio table: positions with at most `maxHeadcount` posts (null: any more) take `ratio` per post. */
export const interviewRatioRowSchema = z.object({
  maxHeadcount: z.number().int().positive({ message: '招聘人数上限应为正整数' }).nullable(),
  ratio,
});
export type InterviewRatioRow = z.infer<typeof interviewRatioRowSchema>;

export const saveScoreRulesSchema = z
  .object({
    examId,
    subjects: z
      .array(
        z.object({
          subjectId: z.number().int().positive(),
          fullMarks: points('满分', MAX_FULL_MARKS).refine((n) => n > 0, { message: '满分应大于 0' }),
          weight: z
            .number({ message: '请填写权重' })
            .gt(0, { message: '权重应大于 0' })
            .max(10, { message: '权重不能超过 10' })
            .refine((n) => decimals(n, 3), { message: '权重最多保留三位小数' }),
        }),
      )
      .min(1, { message: '请先在考场编排中添加考试科目' })
      .max(20),
    passLine: points('合格分数线', MAX_FULL_MARKS * 20),
    /** Optional lines per subject: a candidate below any of them does not qualify. */
    subjectPassLines: z
      .array(z.object({ subjectId: z.number().int().positive(), passLine: points('科目合格线', MAX_FULL_MARKS) }))
      .optional(),
    interviewRatio: ratio.optional(),
    interviewRatioTable: z.array(interviewRatioRowSchema).min(1, { message: '面试比例表至少要有一行' }).max(10).optional(),
    bonusEnabled: z.boolean().default(false),
  })
  .refine((v) => (v.interviewRatio === undefined) !== (v.interviewRatioTable === undefined), {
    path: ['interviewRatio'],
    message: '请填写面试比例，或按招聘人数设置比例表（二选一）',
  })
  .refine((v) => !v.interviewRatioTable || v.interviewRatioTable.some((r) => r.maxHeadcount === null), {
    path: ['interviewRatioTable'],
    message: '面试比例表的最后一行应为“其余”（不设人数上限）',
  })
  .refine((v) => new Set(v.subjects.map((s) => s.subjectId)).size === v.subjects.length, {
    path: ['subjects'],
    message: '科目重复',
  });
export type SaveScoreRulesInput = z.input<typeof saveScoreRulesSchema>;

export const scoreRulesSchema = z.object({
  examId: z.number().int(),
  subjects: z.array(
    z.object({
      subjectId: z.number().int(),
      name: z.string(),
      fullMarks: z.number(),
      weight: z.number(),
      passLine: z.number().nullable(),
    }),
  ),
  passLine: z.number(),
  interviewRatio: z.number().nullable(),
  interviewRatioTable: z.array(interviewRatioRowSchema).nullable(),
  bonusEnabled: z.boolean(),
  /** Tickets with scores. */
  imported: z.number().int(),
  importedAt: z.string().nullable(),
  queryStart: z.string().nullable(),
  publishedAt: z.string().nullable(),
  reviewStart: z.string().nullable(),
  reviewEnd: z.string().nullable(),
});
export type ScoreRules = z.infer<typeof scoreRulesSchema>;

export const scoreImportResultSchema = z.object({
  dryRun: z.boolean(),
  /** Rows read (tickets in the sheet). */
  rows: z.number().int(),
  /** Rows written (0 on a dry run or when any row is wrong). */
  imported: z.number().int(),
  absent: z.number().int(),
  void: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), msg: z.string() })),
});
export type ScoreImportResult = z.infer<typeof scoreImportResultSchema>;

const instant = (message: string) => z.iso.datetime({ offset: true, message }).transform((v) => new Date(v).toISOString());

/** Publishing; optionally with the window in which candidates may ask for a score review (成绩复核). */
export const publishScoresSchema = z
  .object({
    examId,
    queryStart: instant('请选择成绩查询开始时间'),
    reviewStart: instant('请选择复核申请开始时间').optional(),
    reviewEnd: instant('请选择复核申请截止时间').optional(),
  })
  .refine((v) => (v.reviewStart === undefined) === (v.reviewEnd === undefined), {
    path: ['reviewEnd'],
    message: '请同时填写复核申请的开始和截止时间',
  })
  .refine((v) => v.reviewStart === undefined || v.reviewEnd === undefined || v.reviewStart < v.reviewEnd, {
    path: ['reviewEnd'],
    message: '复核申请截止时间应晚于开始时间',
  })
  .refine((v) => v.reviewStart === undefined || v.reviewStart >= v.queryStart, {
    path: ['reviewStart'],
    message: '复核申请不能早于成绩查询开始',
  });
export type PublishScoresInput = z.input<typeof publishScoresSchema>;

const idParam = (message: string) => z.coerce.number({ message }).int({ message }).positive({ message });
export const scoreRankingQuerySchema = z.object({
  examId: idParam('考试编号有误，请从考试列表进入'),
  positionId: idParam('岗位编号有误').optional(),
});

export const scorePositionSummarySchema = z.object({
  positionId: z.number().int(),
  code: z.string(),
  name: z.string(),
  headcount: z.number().int(),
  /** Cancelled at close-out: no interview places (need 0), shown as 岗位已取消. */
  cancelled: z.boolean(),
  /** headcount × ratio, rounded up (0 for a cancelled position). */
  need: z.number().int(),
  /** Candidates with a total (not absent or void). */
  ranked: z.number().int(),
  qualified: z.number().int(),
  inList: z.number().int(),
  cutOff: z.number().nullable(),
  /** Fewer qualified than the ratio asks for: staff decide (lower the ratio, or leave posts open). */
  short: z.boolean(),
  /** Listed candidates who gave up (放弃). */
  gaveUp: z.number().int(),
  /** Places left open by those who gave up and not yet filled (递补). */
  vacancies: z.number().int(),
});
export type ScorePositionSummary = z.infer<typeof scorePositionSummarySchema>;

export const scoreRankingRowSchema = z.object({
  ticketNo: z.string(),
  name: z.string(),
  status: z.enum(SCORE_MARKS),
  subjects: z.array(z.object({ subjectId: z.number().int(), mark: z.enum(SCORE_MARKS), score: z.number().nullable() })),
  bonus: z.number(),
  total: z.number().nullable(),
  rank: z.number().int().nullable(),
  qualified: z.boolean(),
  inList: z.boolean(),
  gaveUp: z.boolean(),
  /** Added to the list after someone gave up (递补). */
  filled: z.boolean(),
  /** Its state in the machine after confirmation: 记录放弃 is offered where the machine allows `leaveList`. */
  laterStatus: z.enum(LATER_STATUSES),
});
export type ScoreRankingRow = z.infer<typeof scoreRankingRowSchema>;

export const scoreRankingSchema = z.object({
  subjects: z.array(z.object({ subjectId: z.number().int(), name: z.string() })),
  positions: z.array(scorePositionSummarySchema),
  /** The asked position's candidates, ranked first, then absent and void. */
  list: z.array(scoreRankingRowSchema),
});
export type ScoreRanking = z.infer<typeof scoreRankingSchema>;

// ---- 成绩复核 (score review) ----------------------------------------------------------------

export const SCORE_REVIEW_STATUSES = ['pending', 'unchanged', 'corrected'] as const;
export type ScoreReviewStatus = (typeof SCORE_REVIEW_STATUSES)[number];
export const SCORE_REVIEW_STATUS_TEXT: Readonly<Record<ScoreReviewStatus, string>> = {
  pending: '待答复',
  unchanged: '复核无误',
  corrected: '已更正',
};
/** What a review of no one subject is about. */
export const WHOLE_SCORE_TEXT = '全部科目';

const reviewText = (label: string) =>
  z
    .string({ message: `请填写${label}` })
    .trim()
    .min(1, { message: `请填写${label}` })
    .max(500, { message: `${label}最多 500 个字` });

export const requestScoreReviewSchema = z.object({
  examId,
  /** Omitted: the scores as a whole. */
  subjectId: z.number().int().positive({ message: '请选择科目' }).optional(),
  reason: reviewText('复核理由'),
});
export type RequestScoreReviewInput = z.input<typeof requestScoreReviewSchema>;

export const answerScoreReviewSchema = z
  .object({
    reviewId: z.number({ message: '复核申请编号有误' }).int().positive({ message: '复核申请编号有误' }),
    result: z.enum(['unchanged', 'corrected'], { message: '请选择复核结果' }),
    /** The subject corrected, when the request named none. */
    subjectId: z.number().int().positive({ message: '请选择更正的科目' }).optional(),
    newScore: points('更正后的分数', MAX_FULL_MARKS).optional(),
    answer: reviewText('答复内容'),
  })
  .refine((v) => v.result !== 'corrected' || v.newScore !== undefined, { path: ['newScore'], message: '请填写更正后的分数' });
export type AnswerScoreReviewInput = z.input<typeof answerScoreReviewSchema>;

export const scoreReviewListQuerySchema = z.object({
  examId: idParam('考试编号有误，请从考试列表进入'),
  status: z.enum(['pending', 'answered'], { message: '状态有误' }).optional(),
});

export const scoreReviewSchema = z.object({
  id: z.number().int(),
  ticketNo: z.string(),
  name: z.string(),
  positionName: z.string(),
  /** Null: the scores as a whole. */
  subjectId: z.number().int().nullable(),
  subjectName: z.string(),
  reason: z.string(),
  status: z.enum(SCORE_REVIEW_STATUSES),
  /** The subject's score now (or the total, for a whole review). */
  score: z.number().nullable(),
  oldScore: z.number().nullable(),
  newScore: z.number().nullable(),
  answer: z.string(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
});
export type ScoreReview = z.infer<typeof scoreReviewSchema>;

/** The candidate's side: the window, and their requests with the answers. */
export const myScoreReviewSchema = z.object({
  start: z.string().nullable(),
  end: z.string().nullable(),
  requests: z.array(scoreReviewSchema.omit({ ticketNo: true, name: true, positionName: true, score: true })),
});
export type MyScoreReview = z.infer<typeof myScoreReviewSchema>;

export const myScoreSchema = z.object({
  examName: z.string(),
  ticketNo: z.string(),
  positionName: z.string(),
  subjects: z.array(z.object({ subjectId: z.number().int(), name: z.string(), score: z.number().nullable(), mark: z.enum(SCORE_MARKS) })),
  review: myScoreReviewSchema,
  bonus: z.number(),
  total: z.number().nullable(),
  rank: z.number().int().nullable(),
  /** Candidates ranked in the position (the N of "rank of N"). */
  ranked: z.number().int(),
  passLine: z.number(),
  qualified: z.boolean(),
  nextStage: z.boolean(),
});
export type MyScore = z.infer<typeof myScoreSchema>;

export const interviewListSchema = z.object({
  examName: z.string(),
  /** 公示时间: the query start (the list and the scores open together), not when staff pressed 发布. */
  publishedAt: z.string(),
  positions: z.array(
    z.object({
      positionId: z.number().int(),
      positionCode: z.string(),
      positionName: z.string(),
      headcount: z.number().int(),
      cutOff: z.number().nullable(),
      list: z.array(z.object({ ticketNo: z.string(), name: z.string(), total: z.number(), rank: z.number().int() })),
    }),
  ),
});
export type InterviewList = z.infer<typeof interviewListSchema>;

// ---- Pure rules ---------------------------------------------------------------------------

/**
 * Competition ranking ("1224"): equal totals share a rank and the next total's rank counts
 * everyone above it, so 72, 71, 71, 71, 70 rank 1, 2, 2, 2, 5. Ranks are given in input order.
 */
export function competitionRanks(totals: readonly number[]): number[] {
  const order = totals.map((t, i) => ({ t, i })).sort((a, b) => b.t - a.t);
  const ranks = new Array<number>(totals.length);
  order.forEach((e, k) => {
    const prev = order[k - 1];
    ranks[e.i] = prev !== undefined && prev.t === e.t ? (ranks[prev.i] ?? k + 1) : k + 1;
  });
  return ranks;
}

/** The ratio a position of `headcount` posts takes: the first table row it fits (null: any). */
export function ratioFor(headcount: number, ratio: number | null, table: readonly InterviewRatioRow[] | null): number {
  if (table && table.length > 0) {
    const sorted = [...table].sort((a, b) => (a.maxHeadcount ?? Infinity) - (b.maxHeadcount ?? Infinity));
    const row = sorted.find((r) => r.maxHeadcount === null || headcount <= r.maxHeadcount) ?? sorted[sorted.length - 1];
    return row?.ratio ?? 0;
  }
  return ratio ?? 0;
}

/** Places in the interview list: headcount × ratio, a fraction rounded up (3 posts at 2.5 → 8). */
export function interviewNeed(headcount: number, ratio: number): number {
  return Math.ceil((headcount * toThousandths(ratio)) / 1000);
}

export interface RankEntry {
  /** Null: absent or void, never ranked or listed. */
  total: number | null;
  /** Above the pass lines (total and subjects). */
  qualified: boolean;
}

export interface RankedEntry {
  rank: number | null;
  inList: boolean;
}

/**
 * One position's ranking and interview list: everyone with a total is ranked; the qualified
 * enter in order of total until `need` places are filled, and everyone tied with the last one
 * enters too. Fewer qualified than `need`: all of them enter, and the position is `short`.
 * Entries are answered in input order.
 */
export function rankPosition(
  entries: readonly RankEntry[],
  need: number,
): { entries: RankedEntry[]; cutOff: number | null; inList: number; short: boolean } {
  const ranked = entries
    .map((e, i) => ({ e, i }))
    .filter((x): x is { e: { total: number; qualified: boolean }; i: number } => x.e.total !== null);
  const ranks = competitionRanks(ranked.map((x) => x.e.total));
  const out: RankedEntry[] = entries.map(() => ({ rank: null, inList: false }));
  ranked.forEach((x, k) => {
    out[x.i] = { rank: ranks[k] ?? null, inList: false };
  });
  const qualified = ranked
    .filter((x) => x.e.qualified)
    .map((x) => x.e.total)
    .sort((a, b) => b - a);
  const short = qualified.length < need;
  const cutOff = need <= 0 || qualified.length === 0 ? null : (qualified[Math.min(need, qualified.length) - 1] ?? null);
  let inList = 0;
  if (cutOff !== null)
    for (const x of ranked)
      if (x.e.qualified && x.e.total >= cutOff) {
        out[x.i] = { rank: out[x.i]?.rank ?? null, inList: true };
        inList++;
      }
  return { entries: out, cutOff, inList, short };
}

/** A name as public lists show it: 张三 → 张*, 张小三 → 张*三, 欧阳小明 → 欧**明. */
export function maskName(name: string): string {
  const chars = Array.from(name.trim());
  if (chars.length <= 1) return chars.join('');
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/** 72.5 → "72.5", 72 → "72": points as people write them. */
export function formatPoints(n: number | null): string {
  if (n === null) return '—';
  return String(Math.round(n * 100) / 100);
}

/** 放弃: a listed candidate gives up the next stage; staff record it with what they said. */
export const recordGiveUpSchema = z.object({
  examId,
  ticketNo: z.string({ message: '请填写准考证号' }).trim().min(1, { message: '请填写准考证号' }).max(30),
  reason: z.string().trim().max(200, { message: '说明最多 200 个字' }).default(''),
});

/** 递补: the next qualified candidates by rank take the places of those who gave up. */
export const fillVacancySchema = z.object({ examId, positionId: z.number().int().positive({ message: '请选择岗位' }) });

/** The plain fields of an exam sheet import's multipart body or query string (scores, interview scores). */
export const sheetImportFieldsSchema = z.object({
  examId: idParam('考试编号有误，请从考试列表进入'),
  dryRun: z
    .enum(['true', 'false', '1', '0'], { message: 'dryRun 应为 true 或 false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});
