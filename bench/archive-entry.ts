// Bundled and run by bench/archive.mjs, once per size in a process of its own: a fresh SQLite
// database (BENCH_DB) with the demo office and an exam that ended 200 days ago with
// ARCHIVE_BENCH_SIZE applications (each a candidate with an encrypted ID number, a form, a
// status-history row, a staff audit line, and a message with its SMS), then the exam's archive made as the console makes it (POST archiveExam:
// the export worker, its 64 MiB heap, the main thread hashing the zip into ARCHIVE_DIR). The
// process's RSS is sampled every 20 ms while the archive is made; the last line printed is JSON.
import { loadavg } from 'node:os';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { createDataCipher } from '../apps/server/src/lib/crypto';
import { seedDemo } from '../apps/server/src/seed/demo';

const N = Number(process.env.ARCHIVE_BENCH_SIZE ?? 5000);
const DB_FILE = process.env.BENCH_DB!;
const DATA_KEY = Buffer.from(process.env.BENCH_DATA_KEY!, 'hex');
const ADMIN_PASSWORD = 'bench-admin-password';
const CAPTCHA = 'bench-captcha';
const mib = (b: number) => Math.round((b / 1024 / 1024) * 10) / 10;

const config = loadConfig(
  { NODE_ENV: 'test', LOG_LEVEL: 'warn', CAPTCHA_FIXED: CAPTCHA, RATE_LIMITS: 'off', DATABASE_URL: `file:${DB_FILE}` },
  process.cwd(),
);
const db = openDatabase(config.database);
await migrateToLatest(db);
await seedDemo(db, { adminPassword: ADMIN_PASSWORD });
const k = db.kysely;

const seedStart = Date.now();
const stamp = new Date(Date.now() - 400 * 86_400_000).toISOString();
const end = new Date(Date.now() - 200 * 86_400_000).toISOString();
const exam = await k
  .insertInto('exam')
  .values({
    office_id: 1,
    name: `归档压测 ${N}`,
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
const idno = createDataCipher(DATA_KEY, [], config.cryptoSuite).encrypt('110105199001010011');
const form = JSON.stringify({
  education: '本科',
  school: '示范大学',
  major: '会计学',
  contactPhone: '13800000000',
  address: '示范市某路 1 号',
});
const SMS_TEXT = `您报考的「归档压测 ${N}」已审核通过，请留意后续缴费确认及准考证打印安排。`;
const CHUNK = 500;
for (let start = 0; start < N; start += CHUNK) {
  await k.transaction().execute(async (trx) => {
    const size = Math.min(CHUNK, N - start);
    const ids = await trx
      .insertInto('candidate')
      .values(
        Array.from({ length: size }, (_, i) => ({
          office_id: 1,
          idno_index: `bench-${start + i}`,
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
    const apps = await trx
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
      .returning('id')
      .execute();
    await trx
      .insertInto('application_history')
      .values(
        apps.map((a) => ({
          application_id: a.id,
          status: 'submitted' as const,
          reason: '',
          actor: 'candidate' as const,
          actor_id: null,
          at: stamp,
        })),
      )
      .execute();
    // What the archive's audit and SMS sheets read (decision 037, item 7): a staff line on each
    // application, and its 审核通过 message with the SMS written in the same step.
    await trx
      .insertInto('audit_log')
      .values(
        apps.map((a) => ({
          office_id: 1,
          staff_id: 1,
          staff_name: '压测',
          action: '查看报名',
          target: `application:${a.id}`,
          detail: '',
          ip: '127.0.0.1',
          at: stamp,
          seq: null,
          mac: null,
          mac_key: null,
        })),
      )
      .execute();
    await trx
      .insertInto('message')
      .values(
        apps.map((a, i) => ({
          office_id: 1,
          candidate_id: ids[i]!.id,
          kind: 'approved' as const,
          application_id: a.id,
          exam_id: exam.id,
          title: '报名审核通过',
          content: SMS_TEXT,
          read_at: null,
          created_at: stamp,
        })),
      )
      .execute();
    await trx
      .insertInto('sms_outbox')
      .values(
        apps.map((a, i) => ({
          office_id: 1,
          candidate_id: ids[i]!.id,
          kind: 'approved' as const,
          mobile: '13800000000',
          params: '{}',
          text: SMS_TEXT,
          idem_key: `bench-${a.id}`,
          status: 'sent' as const,
          next_attempt_at: stamp,
          created_at: stamp,
          sent_at: stamp,
          claimed_by: null,
          lease_until: null,
        })),
      )
      .execute();
  });
}
const seedSeconds = (Date.now() - seedStart) / 1000;

const app = await buildApp(config, { db, dataKey: DATA_KEY, retentionJob: false });
await app.ready();
const code = await app.inject({ method: 'GET', url: '/api/getCode' });
const login = await app.inject({
  method: 'POST',
  url: '/api/admin/login',
  payload: {
    username: 'admin',
    password: ADMIN_PASSWORD,
    captchaId: code.json<{ data: { captchaId: string } }>().data.captchaId,
    captcha: CAPTCHA,
  },
});
const token = login.json<{ data: { token: string } }>().data.token;
const headers = { authorization: `Bearer ${token}` };

globalThis.gc?.();
const base = process.memoryUsage().rss;
let peak = base;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const started = Date.now();
const res = await app.inject({ method: 'POST', url: '/api/admin/archiveExam', payload: { examId: exam.id }, headers });
if (!res.json<{ success: boolean }>().success) throw new Error(`archiveExam: ${res.body}`);
await app.services.archive.settled();
const seconds = (Date.now() - started) / 1000;
clearInterval(sampler);
const status = (await app.inject({ method: 'GET', url: `/api/admin/getArchiveStatus?examId=${exam.id}`, headers })).json<{
  data: { status: string; size: number; error: string };
}>().data;
if (status.status !== 'ready') throw new Error(`archive ${status.status}: ${status.error}`);
await app.close();
await db.destroy();
console.log(
  JSON.stringify({
    applications: N,
    seedSeconds,
    archiveSeconds: seconds,
    baseMiB: mib(base),
    peakMiB: mib(peak),
    growthMiB: mib(peak - base),
    zipMiB: mib(status.size),
    load: loadavg().map((l) => Number(l.toFixed(2))),
  }),
);
