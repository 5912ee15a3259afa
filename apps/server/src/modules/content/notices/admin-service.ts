import { attachmentSchema, ErrorCode, type AdminNotice } from '@zhikaoyun/shared';
import { z } from 'zod';
import { AppError, notFound } from '../../../lib/app-error';
import { parseJsonColumn } from '../../../lib/json';
import { plainText, sanitizeRichText } from '../../../lib/rich-text';
import { nowIso } from '../../../lib/clock';
import type { AttachmentsService } from '../attachments/service';
import type { ConsoleDeps } from '../../access/console-deps';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../exams/lookup';
import type { AdminNoticeRow, NoticesRepository } from './repository';

export interface NoticeValues {
  id?: number | undefined;
  title: string;
  summary: string;
  content: string;
  attachments: { name: string; url: string }[];
  pinned: boolean;
  published: boolean;
  examId: number | null;
}

const SUMMARY_LENGTH = 80;

export interface NoticesAdminDeps {
  repo: NoticesRepository;
  attachments: Pick<AttachmentsService, 'link' | 'unlink'>;
  audit: AuditService;
  changed: ConsoleDeps['changed'];
  exams: ExamLookup;
}

const toNotice = (r: AdminNoticeRow): AdminNotice => ({
  id: r.id,
  title: r.title,
  summary: r.summary,
  content: r.content,
  attachments: parseJsonColumn(z.array(attachmentSchema), r.attachments, []),
  pinned: r.pinned === 1,
  published: r.published === 1,
  publishedAt: r.published_at,
  updatedAt: r.updated_at,
  examId: r.exam_id,
  // The console names the exam from its own list.
  examName: null,
});

/**
 * Notices as the console writes them: drafts, publish and withdraw, pinned, with attachments.
 * The attachments a notice links to (its list and its text) are recorded with it, and a file
 * it no longer links to, that nothing else links to, is deleted with the change.
 */
export function createNoticesAdminService({ repo, attachments, audit, changed, exams }: NoticesAdminDeps) {
  async function row(officeId: number, id: number) {
    const r = await repo.findAny(officeId, id);
    if (!r) throw notFound('notice');
    return r;
  }

  return {
    async page(officeId: number, page: number, pageSize: number): Promise<{ list: AdminNotice[]; total: number }> {
      const { rows, total } = await repo.pageAll(officeId, (page - 1) * pageSize, pageSize);
      return { list: rows.map(toNotice), total };
    },

    async get(officeId: number, id: number): Promise<AdminNotice> {
      return toNotice(await row(officeId, id));
    },

    async save(actor: AuditActor, input: NoticeValues, ip: string): Promise<{ id: number }> {
      const content = sanitizeRichText(input.content);
      if (!plainText(content).length && !/<img/i.test(content)) throw new AppError(ErrorCode.Validation, '公告正文不能为空');
      // Any exam of the office: a notice may be linked to a draft exam too.
      if (input.examId !== null) await exams.require(actor.officeId, input.examId);
      const now = nowIso();
      const values = {
        exam_id: input.examId,
        title: input.title,
        summary: input.summary || plainText(content, SUMMARY_LENGTH),
        content,
        attachments: JSON.stringify(input.attachments),
        pinned: input.pinned ? 1 : 0,
        published: input.published ? 1 : 0,
        updated_at: now,
      };
      const before = input.id !== undefined ? await row(actor.officeId, input.id) : null;
      const id = await repo.transaction(async (trx) => {
        let noticeId: number;
        if (before) {
          // The date candidates see is the first publication, not each later correction.
          const publishedAt = input.published && before.published !== 1 ? now : before.published_at;
          await repo.update(trx, actor.officeId, before.id, { ...values, published_at: publishedAt });
          noticeId = before.id;
        } else {
          noticeId = await repo.insert(trx, actor.officeId, { ...values, published_at: now }, now);
        }
        await attachments.link(trx, actor.officeId, { type: 'notice', id: noticeId }, [content, ...input.attachments.map((a) => a.url)]);
        return noticeId;
      });
      await audit.record(actor, before ? '修改公告' : '新建公告', `notice:${id}`, input.title, ip);
      await changed(actor.officeId);
      return { id };
    },

    async setPublished(actor: AuditActor, id: number, published: boolean, ip: string): Promise<void> {
      const before = await row(actor.officeId, id);
      const now = nowIso();
      await repo.transaction((trx) =>
        repo.update(trx, actor.officeId, id, {
          published: published ? 1 : 0,
          published_at: published && before.published !== 1 ? now : before.published_at,
          updated_at: now,
        }),
      );
      await audit.record(actor, published ? '发布公告' : '撤回公告', `notice:${id}`, before.title, ip);
      await changed(actor.officeId);
    },

    /** The notice goes with every file only it linked to. */
    async remove(actor: AuditActor, id: number, ip: string): Promise<void> {
      const before = await row(actor.officeId, id);
      await repo.transaction(async (trx) => {
        await attachments.unlink(trx, actor.officeId, { type: 'notice', id });
        await repo.remove(trx, actor.officeId, id);
      });
      await audit.record(actor, '删除公告', `notice:${id}`, before.title, ip);
      await changed(actor.officeId);
    },
  };
}
