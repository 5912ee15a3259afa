import { z } from 'zod';
import { pageQuerySchema } from './envelope';

/** Education levels, lowest first: a requirement is met by its level or a higher one. */
export const EDUCATION_LEVELS = ['高中（中专）', '大专', '本科', '硕士研究生', '博士研究生'] as const;
export type Education = (typeof EDUCATION_LEVELS)[number];

export const DEGREES = ['无', '学士', '硕士', '博士'] as const;
export const POLITICAL_STATUSES = ['群众', '共青团员', '中共预备党员', '中共党员', '民主党派', '无党派人士'] as const;

export const positionRequirementsSchema = z.object({
  /** Lowest education accepted; null: no requirement. */
  minEducation: z.enum(EDUCATION_LEVELS).nullable(),
  /** Majors accepted; empty: any major (专业不限). */
  majors: z.array(z.string()),
  /** Oldest age accepted on the day of the check; null: no limit. */
  maxAge: z.number().int().nullable(),
  sex: z.enum(['不限', '男', '女']),
  /** '中共党员' accepts full and probationary members; '不限' accepts anyone. */
  politicalStatus: z.enum(['不限', '中共党员']),
  /** Years of work experience required; 0: none. */
  workYears: z.number().int().min(0),
  /** Anything else, in the office's words. */
  note: z.string(),
});
export type PositionRequirements = z.infer<typeof positionRequirementsSchema>;

/** A position open to all: what a requirement left out means. */
export const OPEN_REQUIREMENTS: PositionRequirements = {
  minEducation: null,
  majors: [],
  maxAge: null,
  sex: '不限',
  politicalStatus: '不限',
  workYears: 0,
  note: '',
};

export const positionSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  code: z.string(),
  name: z.string(),
  unit: z.string(),
  headcount: z.number().int(),
  description: z.string(),
  requirements: positionRequirementsSchema,
  /** Applications submitted or approved for the position, live. */
  applicants: z.number().int(),
  /** For a logged-in candidate: whether they qualify, and why not. */
  eligible: z.boolean().optional(),
  reasons: z.array(z.string()).optional(),
});
export type Position = z.infer<typeof positionSchema>;

export const positionListQuerySchema = pageQuerySchema.extend({
  examId: z.coerce.number({ message: '考试编号有误，请从考试列表进入' }).int().positive({ message: '考试编号有误，请从考试列表进入' }),
  keyword: z.string().trim().max(40, { message: '关键词不能超过 40 个字' }).optional(),
  unit: z.string().trim().max(60).optional(),
  education: z.enum(EDUCATION_LEVELS, { message: '学历选项有误' }).optional(),
});

export const positionIdQuerySchema = z.object({
  id: z.coerce.number({ message: '岗位编号有误' }).int({ message: '岗位编号有误' }).positive({ message: '岗位编号有误' }),
});

export const positionPageSchema = z.object({
  list: z.array(positionSchema),
  total: z.number().int(),
  units: z.array(z.string()),
});

/** What eligibility is computed from: the application form and the ID-derived fields. */
export interface EligibilityProfile {
  education?: string;
  major?: string;
  politicalStatus?: string;
  workYears?: number;
  birthday: string;
  sex: string;
}

/** Age in whole years on `onDate` (yyyy-mm-dd) for a birthday (yyyy-mm-dd). */
export function ageOn(birthday: string, onDate: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number];
  const [y, m, d] = onDate.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/**
 * Whether a candidate qualifies for a position, and each reason why not, in plain words.
 * One function for the browser (to explain) and the server (to decide at submit).
 */
export function checkEligibility(
  req: PositionRequirements,
  p: EligibilityProfile,
  onDate: string,
): { eligible: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (req.minEducation) {
    const have = EDUCATION_LEVELS.indexOf(p.education as Education);
    if (have < 0) reasons.push(`学历要求${req.minEducation}及以上，请先填写学历`);
    else if (have < EDUCATION_LEVELS.indexOf(req.minEducation)) reasons.push(`学历要求${req.minEducation}及以上`);
  }
  if (req.majors.length > 0) {
    const major = p.major?.trim() ?? '';
    if (!major) reasons.push(`专业要求：${req.majors.join('、')}，请先填写专业`);
    else if (!req.majors.some((m) => major === m || major.includes(m))) reasons.push(`专业要求：${req.majors.join('、')}`);
  }
  if (req.maxAge !== null && p.birthday && ageOn(p.birthday, onDate) > req.maxAge) reasons.push(`年龄要求${req.maxAge}周岁以下`);
  if (req.sex !== '不限' && p.sex !== req.sex) reasons.push(`性别要求：${req.sex}`);
  if (req.politicalStatus === '中共党员' && p.politicalStatus !== '中共党员' && p.politicalStatus !== '中共预备党员') {
    reasons.push('政治面貌要求：中共党员（含预备党员）');
  }
  if (req.workYears > 0 && (p.workYears ?? 0) < req.workYears) reasons.push(`要求${req.workYears}年以上工作经历`);
  return { eligible: reasons.length === 0, reasons };
}

const short = (label: string, max: number) =>
  z
    .string({ message: `请输入${label}` })
    .trim()
    .min(1, { message: `请输入${label}` })
    .max(max, { message: `${label}不能超过 ${max} 个字` });

/** A position as the console writes it (and as each row of an Excel import must read). */
export const positionInputSchema = z.object({
  id: z.number().int().positive().optional(),
  examId: z.number({ message: '请选择考试' }).int().positive({ message: '请选择考试' }),
  code: z
    .string({ message: '请输入岗位代码' })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,20}$/, { message: '岗位代码为 1–20 位字母、数字或连字符' }),
  name: short('岗位名称', 60),
  unit: short('招聘单位', 60),
  headcount: z
    .number({ message: '招聘人数应为数字' })
    .int({ message: '招聘人数应为整数' })
    .min(1, { message: '招聘人数至少为 1' })
    .max(9999, { message: '招聘人数有误' }),
  description: z.string().trim().max(500, { message: '岗位描述不能超过 500 个字' }).default(''),
  requirements: positionRequirementsSchema.extend({
    majors: z.array(z.string().trim().min(1).max(40, { message: '专业名称不能超过 40 个字' })).max(50, { message: '专业最多 50 个' }),
    maxAge: z
      .number({ message: '年龄上限应为数字' })
      .int()
      .min(18, { message: '年龄上限不能小于 18' })
      .max(65, { message: '年龄上限不能大于 65' })
      .nullable(),
    workYears: z.number({ message: '工作年限应为数字' }).int().min(0).max(40, { message: '工作年限有误' }),
    note: z.string().trim().max(300, { message: '其他条件不能超过 300 个字' }),
  }),
});
export type PositionInput = z.input<typeof positionInputSchema>;

/** The columns of the position workbook, in order: import reads them, export writes them. */
export const POSITION_SHEET_COLUMNS = [
  '岗位代码',
  '岗位名称',
  '招聘单位',
  '招聘人数',
  '岗位描述',
  '最低学历',
  '专业要求',
  '最高年龄',
  '性别要求',
  '政治面貌要求',
  '工作年限',
  '其他条件',
] as const;

export const positionImportResultSchema = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  /** Row numbers as the spreadsheet shows them (the header is row 1). */
  errors: z.array(z.object({ row: z.number().int(), msg: z.string() })),
});
export type PositionImportResult = z.infer<typeof positionImportResultSchema>;
