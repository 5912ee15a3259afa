import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';

/** What may link to an attachment: a notice, an exam document, or the office's agreement. */
export type AttachmentOwner = { type: 'notice'; id: number } | { type: 'document'; id: number } | { type: 'agreement'; id: number };

/** An attachment named in a URL: by its random id, or (links written before those) by row number. */
export type AttachmentKey = { publicId: string } | { id: number };

export interface NewAttachment {
  officeId: number;
  publicId: string;
  name: string;
  mime: string;
  data: Buffer;
  staffId: number;
  now: string;
}

/** An attachment nothing links to any more (no notice or document names it). */
const unlinked = (eb: ExpressionBuilder<DB, 'attachment'>) =>
  eb.not(eb.exists(eb.selectFrom('attachment_ref as r').select('r.attachment_id').whereRef('r.attachment_id', '=', 'attachment.id')));

export function createAttachmentsRepository(db: Db) {
  const byKey = (key: AttachmentKey) =>
    'publicId' in key ? (['a.public_id', '=', key.publicId] as const) : (['a.id', '=', key.id] as const);

  // An attachment of the office by its key, without its bytes.
  const byKeyIn = (officeId: number, key: AttachmentKey) => {
    const [column, op, value] = byKey(key);
    return db.kysely
      .selectFrom('attachment as a')
      .select(['a.id', 'a.public_id', 'a.name', 'a.mime', 'a.bytes'])
      .where('a.office_id', '=', officeId)
      .where(column, op, value);
  };

  return {
    async insert(a: NewAttachment): Promise<number> {
      const row = await db.kysely
        .insertInto('attachment')
        .values({
          office_id: a.officeId,
          public_id: a.publicId,
          name: a.name,
          mime: a.mime,
          bytes: a.data.length,
          data: a.data,
          staff_id: a.staffId,
          created_at: a.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Any attachment of the office (staff may open drafts' files), without its bytes. */
    find(officeId: number, key: AttachmentKey) {
      return byKeyIn(officeId, key).executeTakeFirst();
    },

    /**
     * The attachment, without its bytes, only when something published links to it: a published
     * notice, a document of a published exam, or the office's agreement (always shown).
     */
    findPublished(officeId: number, key: AttachmentKey) {
      return byKeyIn(officeId, key)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('attachment_ref as r')
              .select('r.attachment_id')
              .whereRef('r.attachment_id', '=', 'a.id')
              .where('r.office_id', '=', officeId)
              .where((o) =>
                o.or([
                  o('r.owner_type', '=', 'agreement'),
                  o.and([
                    o('r.owner_type', '=', 'notice'),
                    o.exists(
                      o
                        .selectFrom('notice as n')
                        .select('n.id')
                        .whereRef('n.id', '=', 'r.owner_id')
                        .where('n.office_id', '=', officeId)
                        .where('n.published', '=', 1),
                    ),
                  ]),
                  o.and([
                    o('r.owner_type', '=', 'document'),
                    o.exists(
                      o
                        .selectFrom('exam_document as d')
                        .innerJoin('exam as e', 'e.id', 'd.exam_id')
                        .select('d.id')
                        .whereRef('d.id', '=', 'r.owner_id')
                        .where('d.office_id', '=', officeId)
                        .where('e.published', '=', 1),
                    ),
                  ]),
                ]),
              ),
          ),
        )
        .executeTakeFirst();
    },

    async data(attachmentId: number): Promise<Buffer | null> {
      const row = await db.kysely.selectFrom('attachment').select('data').where('id', '=', attachmentId).executeTakeFirst();
      return row ? Buffer.from(row.data) : null;
    },

    /** The row ids of the office's attachments the keys name (unknown keys are left out). */
    async resolve(trx: Kysely<DB>, officeId: number, publicIds: string[], ids: number[]): Promise<number[]> {
      if (publicIds.length === 0 && ids.length === 0) return [];
      const rows = await trx
        .selectFrom('attachment')
        .select('id')
        .where('office_id', '=', officeId)
        .where((eb) =>
          eb.or([...(publicIds.length > 0 ? [eb('public_id', 'in', publicIds)] : []), ...(ids.length > 0 ? [eb('id', 'in', ids)] : [])]),
        )
        .execute();
      return rows.map((r) => r.id);
    },

    async linkedFrom(trx: Kysely<DB>, officeId: number, owner: AttachmentOwner): Promise<number[]> {
      const rows = await trx
        .selectFrom('attachment_ref')
        .select('attachment_id')
        .where('office_id', '=', officeId)
        .where('owner_type', '=', owner.type)
        .where('owner_id', '=', owner.id)
        .execute();
      return rows.map((r) => r.attachment_id);
    },

    /** The owner now links to exactly `attachmentIds`. */
    async setLinks(trx: Kysely<DB>, officeId: number, owner: AttachmentOwner, attachmentIds: number[]): Promise<void> {
      await trx
        .deleteFrom('attachment_ref')
        .where('office_id', '=', officeId)
        .where('owner_type', '=', owner.type)
        .where('owner_id', '=', owner.id)
        .execute();
      if (attachmentIds.length === 0) return;
      await trx
        .insertInto('attachment_ref')
        .values(attachmentIds.map((id) => ({ attachment_id: id, office_id: officeId, owner_type: owner.type, owner_id: owner.id })))
        .execute();
    },

    /** Deletes those of `attachmentIds` nothing links to any more; answers how many went. */
    async deleteUnlinked(trx: Kysely<DB>, officeId: number, attachmentIds: number[]): Promise<number> {
      if (attachmentIds.length === 0) return 0;
      const result = await trx
        .deleteFrom('attachment')
        .where('office_id', '=', officeId)
        .where('id', 'in', attachmentIds)
        .where(unlinked)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Deletes every attachment of any office uploaded before `before` that nothing links to. */
    async deleteUnlinkedBefore(before: string): Promise<number> {
      const result = await db.kysely.deleteFrom('attachment').where('created_at', '<', before).where(unlinked).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type AttachmentsRepository = ReturnType<typeof createAttachmentsRepository>;
