import { z } from 'zod';
import { pageQuerySchema } from '../envelope';

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
  sex: z.enum(['不限', '男', '女'], { message: '应为 不限、男 或 女' }),
  /** '中共党员' accepts full and probationary members; '不限' accepts anyone. */
  politicalStatus: z.enum(['不限', '中共党员'], { message: '应为 不限 或 中共党员' }),
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
  /** Present (true) once close-out cancelled the position: nobody can apply or switch to it. */
  cancelled: z.literal(true).optional(),
  /** For a logged-in candidate: whether they qualify, and why not. */
  eligible: z.boolean().optional(),
  reasons: z.array(z.string()).optional(),
  /** In the console: the subjects (科目) the position sits; empty: all of the exam's. */
  subjectIds: z.array(z.number().int()).optional(),
});
export type Position = z.infer<typeof positionSchema>;

export const positionListQuerySchema = pageQuerySchema.extend({
  examId: z.coerce.number({ message: '考试编号有误，请从考试列表进入' }).int().positive({ message: '考试编号有误，请从考试列表进入' }),
  keyword: z.string().trim().max(40, { message: '关键词不能超过 40 个字' }).optional(),
  unit: z.string().trim().max(60).optional(),
  education: z.enum(EDUCATION_LEVELS, { message: '学历选项有误' }).optional(),
  /** For a logged-in candidate: only the positions they qualify for. */
  eligibleOnly: z.enum(['true', 'false'], { message: '筛选条件有误' }).optional(),
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

/**
 * How the console, its sheets and the eligibility reasons write a minimum education: 「本科及以上」;
 * no requirement: 「不限」.
 */
export function educationText(level: Education | null): string {
  return level === null ? '不限' : `${level}及以上`;
}

/**
 * How an age limit is written: 「35周岁以下」; none: 「不限」. As in recruitment notices, 「35周岁以下」
 * includes 35: the candidate qualifies while `ageOn` (whole years on the office's today) is at most
 * 35, that is until the day before their 36th birthday (born after the date 36 years ago).
 * 「35周岁及以下」 and 「不超过35周岁」 say the same (docs/decisions/022).
 */
export function maxAgeText(maxAge: number | null): string {
  return maxAge === null ? '不限' : `${maxAge}周岁以下`;
}

/** How a political requirement is written: 中共党员 accepts probationary members too. */
export function politicalRequirementText(status: '不限' | '中共党员'): string {
  return status === '中共党员' ? '中共党员（含预备党员）' : '不限';
}

/** Age in whole years on `onDate` (yyyy-mm-dd) for a birthday (yyyy-mm-dd). */
export function ageOn(birthday: string, onDate: string): number {
  const [by, bm, bd] = birthday.split('-').map(Number) as [number, number, number];
  const [y, m, d] = onDate.split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}

/** One reason in one wording: what the position asks, then the candidate's own value (or that it is missing). */
function reason(what: string, required: string, yours: string | null | undefined): string {
  const own = yours === null || yours === undefined || yours === '' ? `您尚未填写${what}` : `您的${what}：${yours}`;
  return `${what}要求：${required}；${own}`;
}

/**
 * Whether a candidate qualifies for a position, and each reason why not, in one wording that
 * names the candidate's own value ("专业要求：会计学；您的专业：计算机科学与技术").
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
    if (have < EDUCATION_LEVELS.indexOf(req.minEducation)) reasons.push(reason('学历', educationText(req.minEducation), p.education));
  }
  if (req.majors.length > 0) {
    const major = p.major?.trim() ?? '';
    if (!major || !req.majors.some((m) => major === m || major.includes(m))) reasons.push(reason('专业', req.majors.join('、'), major));
  }
  if (req.maxAge !== null && p.birthday) {
    const age = ageOn(p.birthday, onDate);
    if (age > req.maxAge) reasons.push(reason('年龄', maxAgeText(req.maxAge), `${age}周岁`));
  }
  if (req.sex !== '不限' && p.sex !== req.sex) reasons.push(reason('性别', req.sex, p.sex));
  if (req.politicalStatus === '中共党员' && p.politicalStatus !== '中共党员' && p.politicalStatus !== '中共预备党员') {
    reasons.push(reason('政治面貌', politicalRequirementText('中共党员'), p.politicalStatus));
  }
  if (req.workYears > 0 && (p.workYears ?? 0) < req.workYears) {
    reasons.push(reason('工作年限', `${req.workYears}年以上`, `${p.workYears ?? 0}年`));
  }
  return { eligible: reasons.length === 0, reasons };
}

/**
 * Whether a position matches a candidate's search: its name, code, unit or one of the majors it
 * accepts (candidates search by their 专业: "计算机" finds 计算机科学与技术, and "计算机科学与技术"
 * finds a position asking for 计算机).
 */
export function positionMatches(p: Pick<Position, 'name' | 'code' | 'unit' | 'requirements'>, keyword: string): boolean {
  const k = keyword.trim().toLowerCase();
  if (!k) return true;
  if ([p.name, p.code, p.unit].some((v) => v.toLowerCase().includes(k))) return true;
  return p.requirements.majors.some((m) => m.includes(k) || k.includes(m));
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
  /** The exam subjects the position's candidates sit; left out or empty: all of the exam's. */
  subjectIds: z
    .array(z.number().int().positive({ message: '科目有误' }))
    .max(50, { message: '科目最多 50 个' })
    .optional(),
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
  /** Row numbers as the spreadsheet shows them (title rows above the header counted). */
  errors: z.array(z.object({ row: z.number().int(), msg: z.string() })),
  /** Requirement columns the sheet does not have, read as 不限 for every row (present when any). */
  defaulted: z.array(z.string()).optional(),
});
export type PositionImportResult = z.infer<typeof positionImportResultSchema>;
