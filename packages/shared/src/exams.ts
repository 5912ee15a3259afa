import { z } from 'zod';

/** Which application fields an exam asks for, and which of them are required (examConfig). */
export const examConfigSchema = z.object({
  fields: z.array(z.string()),
  required: z.array(z.string()),
});
export type ExamConfig = z.infer<typeof examConfigSchema>;

export const EXAM_PHASES = ['upcoming', 'registering', 'reviewing', 'confirming', 'closed'] as const;
export type ExamPhase = (typeof EXAM_PHASES)[number];

export const EXAM_PHASE_LABEL: Readonly<Record<ExamPhase, string>> = {
  upcoming: '即将开始报名',
  registering: '报名中',
  reviewing: '资格审查中',
  confirming: '报名确认中',
  closed: '已结束',
};

export const examSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phase: z.enum(EXAM_PHASES),
  registrationStart: z.string(),
  registrationEnd: z.string(),
  reviewStart: z.string(),
  reviewEnd: z.string(),
  confirmationStart: z.string(),
  confirmationEnd: z.string(),
  config: examConfigSchema,
});
export type Exam = z.infer<typeof examSchema>;

export interface ExamWindows {
  registrationStart: string;
  registrationEnd: string;
  reviewStart: string;
  reviewEnd: string;
  confirmationStart: string;
  confirmationEnd: string;
}

/** The exam's phase at `now`, read from its windows (ISO-8601 UTC text compares as time). */
export function examPhase(w: ExamWindows, now: string): ExamPhase {
  if (now < w.registrationStart) return 'upcoming';
  if (now <= w.registrationEnd) return 'registering';
  if (now <= w.reviewEnd) return 'reviewing';
  if (now >= w.confirmationStart && now <= w.confirmationEnd) return 'confirming';
  if (now < w.confirmationStart) return 'reviewing';
  return 'closed';
}

export const examIdQuerySchema = z.object({
  examId: z.coerce
    .number({ message: '考试编号有误，请从考试列表进入' })
    .int({ message: '考试编号有误，请从考试列表进入' })
    .positive({ message: '考试编号有误，请从考试列表进入' }),
});
