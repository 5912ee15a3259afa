import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase, type Db } from '../src/db/database';
import { testClock } from '../src/lib/clock';
import { adminToken } from './helpers/actors';
import { createTestApp, EXPORT_WORKER, HEAVY_WORKER, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { SCORES_EXAM } from './helpers/archive';
import { bearer, get } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { eventually } from './helpers/eventually';

const DAY = 86_400_000;

/**
 * The daily retention job with two server instances on one database (issue 36): each checks
 * every 50 ms, the day's lease in the database lets one of them purge, so the finished exam is
 * anonymised once with one audit record, and the next day is run once again.
 */
for (const kind of DATABASES)
  describe.skipIf(kind.skipped !== null)(`daily retention job on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    const instances: { app: FastifyInstance; db: Db; logs: string[] }[] = [];
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
    });
    afterAll(async () => {
      for (const i of instances) {
        await i.app.close();
        await i.db.destroy();
      }
      testClock.reset();
      await t?.close();
    });

    /** Another server process's app on the same database, its retention check every 50 ms. */
    async function instance() {
      const db = openDatabase(t.config.database);
      const logs: string[] = [];
      const logStream = new PassThrough();
      logStream.on('data', (c: Buffer) => logs.push(c.toString('utf8')));
      const app = await buildApp(
        { ...t.config, retentionCheckMs: 50 },
        { db, dataKey: TEST_DATA_KEY, exportWorker: EXPORT_WORKER, heavyWorker: HEAVY_WORKER, logStream },
      );
      await app.ready();
      instances.push({ app, db, logs });
    }
    const purgesDone = () => instances.flatMap((i) => i.logs).filter((l) => l.includes('retention purge done')).length;

    it('two instances on one database: one purge a day, one audit record', async () => {
      const admin = bearer(await adminToken(t));
      const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string }[];
      const examId = exams.find((e) => e.name === SCORES_EXAM)!.id;
      const status = (await get(t, `/api/admin/getArchiveStatus?examId=${examId}`, admin)).body.data;
      const day = new Date(Date.parse(status.anonymiseAt as string) + DAY).toISOString().slice(0, 10);
      testClock.set(`${day}T01:00:00.000Z`);

      await Promise.all([instance(), instance()]);
      const anonymisedAt = async () =>
        (await t.db.kysely.selectFrom('exam').select('anonymised_at').where('id', '=', examId).executeTakeFirstOrThrow()).anonymised_at;
      await eventually(async () => (await anonymisedAt()) !== null && purgesDone() === 1, 'the first purge', 60_000);
      // Many more checks of both instances: nobody runs the day again.
      await new Promise((r) => setTimeout(r, 1000));
      expect(purgesDone()).toBe(1);
      const audits = await t.db.kysely
        .selectFrom('audit_log')
        .select('id')
        .where('action', '=', '匿名化过期个人信息')
        .where('target', '=', `exam:${examId}`)
        .execute();
      expect(audits).toHaveLength(1);
      const job = await t.db.kysely.selectFrom('daily_job').selectAll().where('name', '=', 'retention-purge').executeTakeFirstOrThrow();
      expect(job).toMatchObject({ done_day: day, lease_until: null });

      // The next day, on Beijing's clock (00:30 there, still `day` in UTC): one run again (the exam
      // is not anonymised twice).
      testClock.set(`${day}T16:30:00.000Z`);
      await eventually(async () => purgesDone() === 2, 'the next day’s purge', 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      expect(purgesDone()).toBe(2);
      expect(
        await t.db.kysely
          .selectFrom('audit_log')
          .select('id')
          .where('action', '=', '匿名化过期个人信息')
          .where('target', '=', `exam:${examId}`)
          .execute(),
      ).toHaveLength(1);
    }, 120_000);
  });
