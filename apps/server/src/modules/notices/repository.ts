import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { DB, NoticeTable } from '../../db/schema';

const ADMIN_COLUMNS = ['id', 'title', 'summary', 'content', 'attachments', 'pinned', 'published', 'published_at', 'updated_at'] as const;

/** The columns the console writes (attachments as JSON text, flags 0/1). */
export type NoticeColumns = Pick<
  Selectable<NoticeTable>,
  'title' | 'summary' | 'content' | 'attachments' | 'pinned' | 'published' | 'published_at' | 'updated_at'
>;

export function createNoticesRepository(db: Db) {
  const published = (officeId: number) => db.kysely.selectFrom('notice').where('office_id', '=', officeId).where('published', '=', 1);
  const all = (officeId: number) => db.kysely.selectFrom('notice').where('office_id', '=', officeId);
  return {
    async page(officeId: number, offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        published(officeId)
          .select(['id', 'title', 'summary', 'published_at', 'pinned'])
          .orderBy('pinned', 'desc')
          .orderBy('published_at', 'desc')
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        published(officeId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    find(officeId: number, id: number) {
      return published(officeId)
        .select(['id', 'title', 'summary', 'content', 'attachments', 'published_at', 'pinned'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** The console's page: drafts too, pinned first, then the latest edited. */
    async pageAll(officeId: number, offset: number, limit: number) {
      const [rows, count] = await Promise.all([
        all(officeId)
          .select(ADMIN_COLUMNS)
          .orderBy('pinned', 'desc')
          .orderBy('updated_at', 'desc')
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        all(officeId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    /** Any notice of the office, draft or published. */
    findAny(officeId: number, id: number) {
      return all(officeId).select(ADMIN_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** Runs `work` in one transaction (a notice and the attachments it links change together). */
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return db.kysely.transaction().execute(work);
    },
    async insert(trx: Kysely<DB>, officeId: number, values: NoticeColumns, now: string): Promise<number> {
      const row = await trx
        .insertInto('notice')
        .values({ ...values, office_id: officeId, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async update(trx: Kysely<DB>, officeId: number, id: number, values: Partial<NoticeColumns>): Promise<void> {
      await trx.updateTable('notice').set(values).where('office_id', '=', officeId).where('id', '=', id).execute();
    },
    async remove(trx: Kysely<DB>, officeId: number, id: number): Promise<void> {
      await trx.deleteFrom('notice').where('office_id', '=', officeId).where('id', '=', id).execute();
    },
  };
}
export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
export type AdminNoticeRow = NonNullable<Awaited<ReturnType<NoticesRepository['findAny']>>>;
