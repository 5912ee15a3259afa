import { z } from 'zod';

export const attachmentSchema = z.object({ name: z.string(), url: z.string() });

export const noticeSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  publishedAt: z.string(),
  pinned: z.boolean(),
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

export const noticePageSchema = z.object({ list: z.array(noticeSummarySchema), total: z.number().int() });
