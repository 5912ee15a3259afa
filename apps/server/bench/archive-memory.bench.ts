import { execSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../src/lib/crypto';
import { adminToken } from '../test/helpers/actors';
import { createTestApp, TEST_DATA_KEY, type TestApp } from '../test/helpers/app';
import { archiveDir, archiveOf, sheetRows, unzip } from '../test/helpers/archive';
import { bearer } from '../test/helpers/candidates';
import { DATABASES } from '../test/helpers/databases';

/**
 * `npx vitest run --config apps/server/vitest.bench.config.ts bench/archive-memory`: an exam of
 * ARCHIVE_BENCH_SIZES applications (default 20,000 and 200,000) archived through the API (the
 * export worker, its 64 MiB heap) on SQLite, sampling the process's RSS every 100 ms: the peak
 * above the level before the archive started should not grow with the exam's size.
 */
const SIZES = (process.env.ARCHIVE_BENCH_SIZES ?? '20000,200000').split(',').map(Number);
const sqlite = DATABASES.find((d) => d.name === 'sqlite')!;

async function seedExam(t: TestApp, n: number): Promise<number> {
  const k = t.db.kysely;
  const stamp = new Date(Date.now() - 400 * 86_400_000).toISOString();
  const end = new Date(Date.now() - 200 * 86_400_000).toISOString();
  const exam = await k
    .insertInto('exam')
    .values({
      office_id: 1,
      name: `归档压测 ${n}`,
      published: 1,
      registration_start: stamp,
      registration_end: end,
      review_start: stamp,
      review_end: end,
      confirmation_start: end,
      confirmation_end: end,
      config: '{}',
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const idno = createDataCipher(TEST_DATA_KEY, [], 'standard').encrypt('110105199001010011');
  const form = JSON.stringify({
    education: '本科',
    school: '示范大学',
    major: '会计学',
    contactPhone: '13800000000',
    address: '示范市某路 1 号',
  });
  const CHUNK = 400;
  for (let start = 0; start < n; start += CHUNK) {
    await k.transaction().execute(async (trx) => {
      const size = Math.min(CHUNK, n - start);
      const ids = await trx
        .insertInto('candidate')
        .values(
          Array.from({ length: size }, (_, i) => ({
            office_id: 1,
            idno_index: `bench-${exam.id}-${start + i}`,
            idno_enc: idno,
            name: `考生${start + i}`,
            birthday: '1990-01-01',
            sex: '男',
            password_hash: 'x',
            mobile: '13800000000',
            email: '',
            question: '',
            answer_enc: '',
            photo_id: null,
            consent_at: stamp,
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .returning('id')
        .execute();
      await trx
        .insertInto('application')
        .values(
          ids.map((c) => ({
            office_id: 1,
            exam_id: exam.id,
            candidate_id: c.id,
            position_id: null,
            status: 'submitted' as const,
            form,
            reason: '',
            submitted_at: stamp,
            reviewed_at: null,
            created_at: stamp,
            updated_at: stamp,
          })),
        )
        .execute();
    });
  }
  return exam.id;
}

describe('exam archive memory', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
  });
  it('keeps RSS flat as the exam grows', async () => {
    t = await createTestApp(sqlite, {}, { config: { archiveDir: archiveDir() } });
    const admin = bearer(await adminToken(t));
    const results: { applications: number; seconds: number; baseMiB: number; peakMiB: number; growthMiB: number; zipMiB: number }[] = [];
    for (const n of SIZES) {
      const examId = await seedExam(t, n);
      global.gc?.();
      const base = process.memoryUsage().rss;
      let peak = base;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const started = Date.now();
      const { status, zip } = await archiveOf(t, admin, examId, 1_800_000);
      clearInterval(timer);
      const seconds = (Date.now() - started) / 1000;
      const files = await unzip(zip);
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as { files: { name: string; rows: number }[] };
      expect(manifest.files.find((f) => f.name === '01-报名信息.xlsx')!.rows).toBe(n);
      if (n <= 20_000) expect((await sheetRows(files.get('01-报名信息.xlsx')!)).length).toBe(n + 1);
      const mib = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;
      results.push({
        applications: n,
        seconds,
        baseMiB: mib(base),
        peakMiB: mib(peak),
        growthMiB: mib(peak - base),
        zipMiB: mib(Number(status.size)),
      });
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} (${execSync('nproc').toString().trim()} cores)`,
    );
    console.table(results);
  });
});
