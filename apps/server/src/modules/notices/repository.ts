import type { Db } from '../../db/database';

export function createNoticesRepository(db: Db) {
  const published = (officeId: number) => db.kysely.selectFrom('notice').where('office_id', '=', officeId).where('published', '=', 1);
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
  };
}
export type NoticesRepository = ReturnType<typeof createNoticesRepository>;
