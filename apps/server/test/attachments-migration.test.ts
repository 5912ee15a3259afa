import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { migrateToLatest, migrations } from '../src/db/migrate';
import { createAttachmentsRepository } from '../src/modules/content/attachments/repository';
import { insertOfficeRow } from './helpers/app';
import { DATABASES } from './helpers/databases';

/**
 * An upgraded database: attachments uploaded before random ids get one, the links stored in
 * notices are rewritten to it and recorded, so a published notice's file stays served and a
 * draft's is not.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`attachment migration on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    it('gives old attachments random ids, rewrites stored links and records them', async () => {
      const database = await kind.create();
      const db = openDatabase(database.config);
      try {
        // The schema as it was before migration 0008: the migrations up to 0006.
        const before = Object.fromEntries(Object.entries(migrations(db.dialect)).filter(([name]) => name < '0007'));
        const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: () => Promise.resolve(before) } });
        const { error } = await migrator.migrateToLatest();
        expect(error).toBeUndefined();

        const stamp = '2026-01-01T00:00:00.000Z';
        const office = { id: await insertOfficeRow(db.kysely, 'old', stamp) };
        // Written as the old schema had it: no public id column yet.
        const file = async (name: string) =>
          (
            await sql<{ id: number }>`insert into attachment (office_id, name, mime, bytes, data, staff_id, created_at)
              values (${office.id}, ${name}, 'application/pdf', 4, ${Buffer.from('%PDF')}, 1, ${stamp}) returning id`.execute(db.kysely)
          ).rows[0]!;
        const published = await file('published.pdf');
        const inText = await file('in-text.pdf');
        const draft = await file('draft.pdf');
        const link = (id: number) => `/api/getAttachment?id=${id}&officeCode=old`;
        const notice = (title: string, isPublished: number, attachments: unknown[], content: string) =>
          db.kysely
            .insertInto('notice')
            .values({
              office_id: office.id,
              title,
              summary: '',
              content,
              attachments: JSON.stringify(attachments),
              pinned: 0,
              published: isPublished,
              published_at: stamp,
              created_at: stamp,
              updated_at: stamp,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
        const open = await notice(
          '已发布',
          1,
          [{ name: 'published.pdf', url: link(published.id) }],
          `<p><a href="${link(inText.id).replace('&', '&amp;')}">正文附件</a></p>`,
        );
        await notice('草稿', 0, [{ name: 'draft.pdf', url: link(draft.id) }], '<p>x</p>');

        await migrateToLatest(db);

        const rows = await db.kysely.selectFrom('attachment').select(['id', 'public_id']).orderBy('id').execute();
        expect(rows).toHaveLength(3);
        for (const r of rows) expect(r.public_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
        const publicId = (id: number) => rows.find((r) => r.id === id)?.public_id ?? '';
        const stored = await db.kysely
          .selectFrom('notice')
          .select(['content', 'attachments'])
          .where('id', '=', open.id)
          .executeTakeFirstOrThrow();
        expect(JSON.parse(stored.attachments)).toEqual([
          { name: 'published.pdf', url: `/api/getAttachment?id=${publicId(published.id)}&officeCode=old` },
        ]);
        expect(stored.content).toContain(`/api/getAttachment?id=${publicId(inText.id)}&amp;officeCode=old`);

        const repo = createAttachmentsRepository(db);
        expect(await repo.findPublished(office.id, { publicId: publicId(published.id) })).toMatchObject({ name: 'published.pdf' });
        expect(await repo.findPublished(office.id, { publicId: publicId(inText.id) })).toMatchObject({ name: 'in-text.pdf' });
        expect(await repo.findPublished(office.id, { publicId: publicId(draft.id) })).toBeUndefined();
        expect(await repo.findPublished(office.id, { id: draft.id })).toBeUndefined();
        expect(await repo.findPublished(office.id, { id: published.id })).toMatchObject({ name: 'published.pdf' });
      } finally {
        await db.destroy();
        await database.drop();
      }
    });
  });
}
