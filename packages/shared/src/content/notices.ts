import { z } from 'zod';

export const attachmentSchema = z.object({ name: z.string(), url: z.string() });

export const noticeSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  publishedAt: z.string(),
  pinned: z.boolean(),
  /** The exam the notice belongs to (null: a general notice, or its exam is not published). */
  examId: z.number().int().nullable(),
  examName: z.string().nullable(),
});
export type NoticeSummary = z.infer<typeof noticeSummarySchema>;

export const noticeSchema = noticeSummarySchema.extend({
  content: z.string(),
  attachments: z.array(attachmentSchema),
});
export type Notice = z.infer<typeof noticeSchema>;

export const noticeIdQuerySchema = z.object({
  id: z.coerce.number({ message: '公告编号有误' }).int({ message: '公告编号有误' }).positive({ message: '公告编号有误' }),
});

/** A published exam's 招考公告 (its notice document), listed in 通知公告 with the exam's notices. */
export const examNoticeSchema = z.object({ examId: z.number().int(), examName: z.string(), title: z.string(), updatedAt: z.string() });
export type ExamNotice = z.infer<typeof examNoticeSchema>;

export const noticePageSchema = z.object({
  list: z.array(noticeSummarySchema),
  total: z.number().int(),
  /** The 招考公告 of the published exams (with `examId`: of that exam only), newest exam first. */
  examNotices: z.array(examNoticeSchema),
});
export type NoticePage = z.infer<typeof noticePageSchema>;

/** 通知公告's query: a page, and optionally one exam (its 招考公告 and the notices linked to it). */
export const noticeListQuerySchema = z.object({
  examId: z.coerce.number({ message: '考试编号有误' }).int({ message: '考试编号有误' }).positive({ message: '考试编号有误' }).optional(),
});

/** A notice as the console writes it. */
export const noticeInputSchema = z.object({
  id: z.number().int().positive().optional(),
  title: z.string().trim().min(1, { message: '请输入公告标题' }).max(80, { message: '公告标题不能超过 80 个字' }),
  summary: z.string().trim().max(200, { message: '摘要不能超过 200 个字' }).default(''),
  content: z.string().trim().min(1, { message: '请输入公告正文' }).max(200_000, { message: '公告正文过长' }),
  attachments: z
    .array(
      attachmentSchema.extend({
        name: z.string().trim().min(1).max(120),
        url: z
          .string()
          .max(300)
          // Only this site's own pages and files: no other host, no script URL.
          .regex(/^\/(?!\/)[\w\-./?=&%]*$/, { message: '附件地址有误' }),
      }),
    )
    .max(10, { message: '附件最多 10 个' })
    .default([]),
  pinned: z.boolean().default(false),
  published: z.boolean().default(false),
  /** 所属考试: the exam the notice is about (listed with its 招考公告); null: a general notice. */
  examId: z.number({ message: '所属考试有误' }).int().positive({ message: '所属考试有误' }).nullable().default(null),
});
export type NoticeInput = z.input<typeof noticeInputSchema>;

export const adminNoticeSchema = noticeSchema.extend({ published: z.boolean(), updatedAt: z.string() });
export type AdminNotice = z.infer<typeof adminNoticeSchema>;

export const noticePublishSchema = z.object({
  id: z.number({ message: '公告编号有误' }).int().positive({ message: '公告编号有误' }),
  published: z.boolean({ message: '请选择发布或撤回' }),
});

/** Files a notice may carry: documents, sheets, archives and images, at most 10 MB each. */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'xls', 'xlsx', 'zip', 'jpg', 'jpeg', 'png', 'txt'] as const;

/**
 * An attachment's id in its URL: 128 random bits as base64url (22 characters), so a file cannot
 * be found by counting. Links written before these ids existed carry the row number instead;
 * such a link still opens a file that something published links to, and nothing else.
 */
export const ATTACHMENT_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
const LEGACY_ATTACHMENT_ID = /^[1-9]\d{0,8}$/;

export const attachmentIdQuerySchema = z.object({
  id: z
    .string({ message: '附件编号有误' })
    .refine((id) => ATTACHMENT_ID_PATTERN.test(id) || LEGACY_ATTACHMENT_ID.test(id), { message: '附件编号有误' }),
});

/** What the console's upload answers: the id and the link candidates open once it is published. */
export const attachmentUploadSchema = attachmentSchema.extend({ id: z.string() });
export type AttachmentUpload = z.infer<typeof attachmentUploadSchema>;

/** The candidate site's link to an attachment (served once something published links to it). */
export const attachmentUrl = (id: string, officeCode: string) =>
  `/api/getAttachment?id=${encodeURIComponent(id)}&officeCode=${encodeURIComponent(officeCode)}`;

/**
 * The attachment ids that `/api/getAttachment` links in a text name (rich text, where `&` is
 * written `&amp;`, or a bare URL), in order of appearance, without repeats.
 */
export function attachmentIdsIn(text: string): string[] {
  const ids = new Set<string>();
  for (const m of text.matchAll(/\/api\/getAttachment\?([^"'\s<>]*)/g)) {
    const id = new URLSearchParams((m[1] ?? '').replace(/&amp;/g, '&')).get('id');
    if (id && (ATTACHMENT_ID_PATTERN.test(id) || LEGACY_ATTACHMENT_ID.test(id))) ids.add(id);
  }
  return [...ids];
}
