import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/** Links to attachments in stored text, as written before this migration (`id=<row number>`). */
const LINK = /(\/api\/getAttachment\?[^"'\s<>]*?\bid=)(\d+)/g;

/**
 * Attachments get an unguessable id for their URLs, and a record of what links to each (a
 * notice, an exam document, the agreement), so that only files something published links to are
 * served to anyone, and files nothing links to any more can be deleted. Existing links in stored
 * text are rewritten to the new ids and recorded.
 */
export function attachments(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema.alterTable('attachment').addColumn('public_id', 'text').execute();
      const rows = (await sql<{ id: number; office_id: number }>`select id, office_id from attachment`.execute(db)).rows;
      const publicIds = new Map<string, string>();
      for (const r of rows) {
        const publicId = randomBytes(16).toString('base64url');
        await sql`update attachment set public_id = ${publicId} where id = ${r.id}`.execute(db);
        publicIds.set(`${r.office_id}:${r.id}`, publicId);
      }
      await db.schema.createIndex('attachment_public_id_idx').on('attachment').column('public_id').unique().execute();
      await db.schema
        .createTable('attachment_ref')
        .addColumn('attachment_id', 'integer', (c) => c.notNull().references('attachment.id').onDelete('cascade'))
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('owner_type', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('attachment_ref_pk', ['owner_type', 'owner_id', 'attachment_id'])
        .execute();
      await db.schema.createIndex('attachment_ref_attachment_idx').on('attachment_ref').column('attachment_id').execute();

      /** Rewrites the office's links to new ids; answers the text and the attachments it links to. */
      const rewrite = (officeId: number, text: string, linked: Set<number>) =>
        text.replace(LINK, (whole, prefix: string, id: string) => {
          const publicId = publicIds.get(`${officeId}:${id}`);
          if (!publicId) return whole;
          linked.add(Number(id));
          return `${prefix}${publicId}`;
        });
      const record = async (officeId: number, ownerType: string, ownerId: number, linked: Set<number>) => {
        for (const attachmentId of linked) {
          await sql`insert into attachment_ref (attachment_id, office_id, owner_type, owner_id)
                    values (${attachmentId}, ${officeId}, ${ownerType}, ${ownerId})`.execute(db);
        }
      };

      const notices = await sql<{ id: number; office_id: number; content: string; attachments: string }>`
        select id, office_id, content, attachments from notice`.execute(db);
      for (const n of notices.rows) {
        const linked = new Set<number>();
        const content = rewrite(n.office_id, n.content, linked);
        const list = rewrite(n.office_id, n.attachments, linked);
        if (linked.size === 0) continue;
        await sql`update notice set content = ${content}, attachments = ${list} where id = ${n.id}`.execute(db);
        await record(n.office_id, 'notice', n.id, linked);
      }
      const documents = await sql<{ id: number; office_id: number; content: string }>`
        select id, office_id, content from exam_document`.execute(db);
      for (const d of documents.rows) {
        const linked = new Set<number>();
        const content = rewrite(d.office_id, d.content, linked);
        if (linked.size === 0) continue;
        await sql`update exam_document set content = ${content} where id = ${d.id}`.execute(db);
        await record(d.office_id, 'document', d.id, linked);
      }
      const offices = await sql<{ id: number; agreement_content: string }>`select id, agreement_content from office`.execute(db);
      for (const o of offices.rows) {
        const linked = new Set<number>();
        const content = rewrite(o.id, o.agreement_content, linked);
        if (linked.size === 0) continue;
        await sql`update office set agreement_content = ${content} where id = ${o.id}`.execute(db);
        await record(o.id, 'agreement', o.id, linked);
      }
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('attachment_ref').execute();
      await db.schema.dropIndex('attachment_public_id_idx').execute();
      await db.schema.alterTable('attachment').dropColumn('public_id').execute();
    },
  };
}
