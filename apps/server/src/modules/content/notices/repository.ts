import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, NoticeTable } from '../../../db/schema';

const ADMIN_COLUMNS = [
  'id',
  'title',
  'summary',
  'content',
  'attachments',
  'pinned',
  'published',
  'published_at',
  'updated_at',
  'exam_id',
] as const;

/** The columns the console writes (attachments as JSON text, flags 0/1). */
export type NoticeColumns = Pick<
  Selectable<NoticeTable>,
  'title' | 'summary' | 'content' | 'attachments' | 'pinned' | 'published' | 'published_at' | 'updated_at' | 'exam_id'
>;

export function createNoticesRepository(db: Db) {
  const published = (officeId: number) =>
    db.kysely.selectFrom('notice').where('notice.office_id', '=', officeId).where('notice.published', '=', 1);
  const all = (officeId: number) => db.kysely.selectFrom('notice').where('office_id', '=', officeId);
  return {
    /** Published notices, pinned first; `examId`: only those linked to that exam. With the exam's name when it is published. */
    async page(officeId: number, offset: number, limit: number, examId?: number) {
      const scoped = () => {
        const q = published(officeId);
        return examId === undefined ? q : q.where('exam_id', '=', examId);
      };
      const [rows, count] = await Promise.all([
        scoped()
          .leftJoin('exam as e', (j) => j.onRef('e.id', '=', 'notice.exam_id').on('e.published', '=', 1))
          .select([
            'notice.id',
            'notice.title',
            'notice.summary',
            'notice.published_at',
            'notice.pinned',
            'e.id as exam_id',
            'e.name as exam_name',
          ])
          .orderBy('notice.pinned', 'desc')
          .orderBy('notice.published_at', 'desc')
          .orderBy('notice.id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        scoped()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
    /** The 招考公告 (notice document) of the office's published exams, or of one; newest exam first. */
    examNotices(officeId: number, examId?: number) {
      let q = db.kysely
        .selectFrom('exam_document as d')
        .innerJoin('exam as e', 'e.id', 'd.exam_id')
        .select(['e.id as exam_id', 'e.name as exam_name', 'd.title', 'd.updated_at'])
        .where('e.office_id', '=', officeId)
        .where('e.published', '=', 1)
        .where('d.type', '=', 'notice');
      if (examId !== undefined) q = q.where('e.id', '=', examId);
      return q.orderBy('e.registration_start', 'desc').orderBy('e.id', 'desc').limit(50).execute();
    },
    find(officeId: number, id: number) {
      return published(officeId)
        .leftJoin('exam as e', (j) => j.onRef('e.id', '=', 'notice.exam_id').on('e.published', '=', 1))
        .select([
          'notice.id',
          'notice.title',
          'notice.summary',
          'notice.content',
          'notice.attachments',
          'notice.published_at',
          'notice.pinned',
          'e.id as exam_id',
          'e.name as exam_name',
        ])
        .where('notice.id', '=', id)
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
