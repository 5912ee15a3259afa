import { attachmentSchema, ErrorCode, type AdminNotice } from '@zhikaoyun/shared';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { parseJsonColumn } from '../../lib/json';
import { plainText, sanitizeRichText } from '../../lib/rich-text';
import { nowIso } from '../../lib/time';
import type { ConsoleDeps } from '../audit/console-deps';
import type { AuditActor } from '../audit/service';

export interface NoticeValues {
  id?: number | undefined;
  title: string;
  summary: string;
  content: string;
  attachments: { name: string; url: string }[];
  pinned: boolean;
  published: boolean;
}

const SUMMARY_LENGTH = 80;
const COLUMNS = ['id', 'title', 'summary', 'content', 'attachments', 'pinned', 'published', 'published_at', 'updated_at'] as const;

/** Notices as the console writes them: drafts, publish and withdraw, pinned, with attachments. */
export function createNoticesAdminService({ db, audit, changed }: ConsoleDeps) {
  async function row(officeId: number, id: number) {
    const r = await db.kysely
      .selectFrom('notice')
      .select(COLUMNS)
      .where('office_id', '=', officeId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!r) throw new AppError(ErrorCode.NotFound, '该公告不存在或已删除');
    return r;
  }
  const toNotice = (r: Awaited<ReturnType<typeof row>>): AdminNotice => ({
    id: r.id,
    title: r.title,
    summary: r.summary,
    content: r.content,
    attachments: parseJsonColumn(z.array(attachmentSchema), r.attachments, []),
    pinned: r.pinned === 1,
    published: r.published === 1,
    publishedAt: r.published_at,
    updatedAt: r.updated_at,
  });

  return {
    async page(officeId: number, page: number, pageSize: number): Promise<{ list: AdminNotice[]; total: number }> {
      const base = db.kysely.selectFrom('notice').where('office_id', '=', officeId);
      const [rows, count] = await Promise.all([
        base
          .select(COLUMNS)
          .orderBy('pinned', 'desc')
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .offset((page - 1) * pageSize)
          .limit(pageSize)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { list: rows.map(toNotice), total: Number(count.n) };
    },

    async get(officeId: number, id: number): Promise<AdminNotice> {
      return toNotice(await row(officeId, id));
    },

    async save(actor: AuditActor, input: NoticeValues, ip: string): Promise<{ id: number }> {
      const content = sanitizeRichText(input.content);
      if (!plainText(content).length && !/<img/i.test(content)) throw new AppError(ErrorCode.Validation, '公告正文不能为空');
      const now = nowIso();
      const values = {
        title: input.title,
        summary: input.summary || plainText(content, SUMMARY_LENGTH),
        content,
        attachments: JSON.stringify(input.attachments),
        pinned: input.pinned ? 1 : 0,
        published: input.published ? 1 : 0,
        updated_at: now,
      };
      let id: number;
      if (input.id !== undefined) {
        const before = await row(actor.officeId, input.id);
        // The date candidates see is the first publication, not each later correction.
        const publishedAt = input.published && before.published !== 1 ? now : before.published_at;
        await db.kysely
          .updateTable('notice')
          .set({ ...values, published_at: publishedAt })
          .where('office_id', '=', actor.officeId)
          .where('id', '=', input.id)
          .execute();
        id = input.id;
      } else {
        const r = await db.kysely
          .insertInto('notice')
          .values({ ...values, office_id: actor.officeId, published_at: now, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = r.id;
      }
      await audit.record(actor, input.id === undefined ? '新建公告' : '修改公告', `notice:${id}`, input.title, ip);
      await changed(actor.officeId);
      return { id };
    },

    async setPublished(actor: AuditActor, id: number, published: boolean, ip: string): Promise<void> {
      const before = await row(actor.officeId, id);
      const now = nowIso();
      await db.kysely
        .updateTable('notice')
        .set({
          published: published ? 1 : 0,
          published_at: published && before.published !== 1 ? now : before.published_at,
          updated_at: now,
        })
        .where('office_id', '=', actor.officeId)
        .where('id', '=', id)
        .execute();
      await audit.record(actor, published ? '发布公告' : '撤回公告', `notice:${id}`, before.title, ip);
      await changed(actor.officeId);
    },

    async remove(actor: AuditActor, id: number, ip: string): Promise<void> {
      const before = await row(actor.officeId, id);
      await db.kysely.deleteFrom('notice').where('office_id', '=', actor.officeId).where('id', '=', id).execute();
      await audit.record(actor, '删除公告', `notice:${id}`, before.title, ip);
      await changed(actor.officeId);
    },
  };
}
