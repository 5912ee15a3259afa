import { attachmentSchema, type Notice, type NoticePage, type NoticeSummary } from '@zhikaoyun/shared';
import { z } from 'zod';
import { notFound } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import { sanitizeRichText } from '../../../lib/rich-text';
import type { NoticesRepository } from './repository';

export function createNoticesService(repo: NoticesRepository) {
  return {
    async page(officeId: number, page: number, pageSize: number, examId?: number): Promise<NoticePage> {
      const [{ rows, total }, exams] = await Promise.all([
        repo.page(officeId, (page - 1) * pageSize, pageSize, examId),
        repo.examNotices(officeId, examId),
      ]);
      return {
        list: rows.map((r): NoticeSummary => ({
          id: r.id,
          title: r.title,
          summary: r.summary,
          publishedAt: r.published_at,
          pinned: r.pinned === 1,
          examId: r.exam_id,
          examName: r.exam_name,
        })),
        total,
        examNotices: exams.map((e) => ({ examId: e.exam_id, examName: e.exam_name, title: e.title, updatedAt: e.updated_at })),
      };
    },
    async detail(officeId: number, id: number): Promise<Notice> {
      const r = await repo.find(officeId, id);
      if (!r) throw notFound('publishedNotice');
      return {
        id: r.id,
        title: r.title,
        summary: r.summary,
        publishedAt: r.published_at,
        pinned: r.pinned === 1,
        examId: r.exam_id,
        examName: r.exam_name,
        // Sanitized when written and again when read: a row written by any path is safe to show.
        content: sanitizeRichText(r.content),
        attachments: parseJsonColumn(z.array(attachmentSchema), r.attachments, []),
      };
    },
  };
}
