import { z } from 'zod';

export const DOCUMENT_TYPES = ['notice', 'pledge', 'guide', 'attachment'] as const;
export const documentTypeSchema = z.enum(DOCUMENT_TYPES);
export type DocumentType = z.infer<typeof documentTypeSchema>;

export const DOCUMENT_TYPE_LABEL: Readonly<Record<DocumentType, string>> = {
  notice: '招考公告',
  pledge: '诚信承诺书',
  guide: '报考指南',
  attachment: '附件',
};

export const getDocQuerySchema = z.object({
  examId: z.coerce
    .number({ message: '考试编号有误，请从考试列表进入' })
    .int({ message: '考试编号有误，请从考试列表进入' })
    .positive({ message: '考试编号有误，请从考试列表进入' }),
  type: z.enum(DOCUMENT_TYPES, { message: '文件类型有误' }).optional(),
});

export const examDocumentSchema = z.object({
  id: z.number().int(),
  examId: z.number().int(),
  type: documentTypeSchema,
  title: z.string(),
  content: z.string(),
  updatedAt: z.string(),
});
export type ExamDocument = z.infer<typeof examDocumentSchema>;

/** The exam texts the console writes; one of each type per exam. */
export const EDITABLE_DOCUMENT_TYPES = ['notice', 'guide', 'pledge'] as const;

export const documentInputSchema = z.object({
  examId: z.number({ message: '考试编号有误' }).int().positive({ message: '考试编号有误' }),
  type: z.enum(EDITABLE_DOCUMENT_TYPES, { message: '文件类型有误' }),
  title: z.string().trim().min(1, { message: '请输入标题' }).max(80, { message: '标题不能超过 80 个字' }),
  content: z.string().trim().min(1, { message: '请输入正文' }).max(200_000, { message: '正文过长' }),
});
export type DocumentInput = z.input<typeof documentInputSchema>;
