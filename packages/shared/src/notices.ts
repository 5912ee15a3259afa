import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants';

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

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1, { message: '页码有误' }).max(10_000, { message: '页码有误' }).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, { message: '每页条数有误' })
    .default(10)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
});

export const noticeIdQuerySchema = z.object({
  id: z.coerce.number({ message: '公告编号有误' }).int({ message: '公告编号有误' }).positive({ message: '公告编号有误' }),
});

export const noticePageSchema = z.object({ list: z.array(noticeSummarySchema), total: z.number().int() });
