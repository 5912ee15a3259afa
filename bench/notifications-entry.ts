// Bundled and run by bench/notifications.mjs: an announcement to BENCH_CANDIDATES candidates
// (queued in one transaction), then the SMS worker delivering them through the log provider.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { seedDemo } from '../apps/server/src/seed/demo';

const N = Number(process.env.BENCH_CANDIDATES ?? 100_000);
const url = process.env.BENCH_DATABASE_URL;

const dir = mkdtempSync(path.join(tmpdir(), 'zk-bench-sms-'));
const config = loadConfig(
  { NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: url ?? `file:${path.join(dir, 'bench.db')}` },
  process.cwd(),
);
const db = openDatabase(config.database);
try {
  await migrateToLatest(db);
  if (url) {
    // A PostgreSQL bench database is emptied of earlier runs' rows first.
    await sql`truncate sms_log, sms_outbox, message, announcement, application, application_history, candidate restart identity cascade`.execute(
      db.kysely,
    );
  }
  await seedDemo(db, { adminPassword: 'bench-admin-password' });
  const k = db.kysely;
  const office = await k.selectFrom('office').select('id').executeTakeFirstOrThrow();
  const exam = await k.selectFrom('exam').select('id').where('office_id', '=', office.id).orderBy('id').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  // N candidates with an approved application each, written in bulk (not what is measured).
  const series =
    db.dialect === 'postgres'
      ? sql`select g as n from generate_series(1, ${N}) g`
      : sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < ${N}) select n from s`;
  // Each candidate a phone of their own (the per-phone limits are not what is measured).
  const mobile = db.dialect === 'postgres' ? sql`'13' || lpad(cast(n as text), 9, '0')` : sql`'13' || substr('000000000' || n, -9, 9)`;
  await sql`insert into candidate (office_id, idno_index, idno_enc, name, birthday, sex, password_hash, mobile, email, question, answer_enc, created_at, updated_at)
    select ${office.id}, 'bench-' || n, 'x', '考生', '1990-01-01', '男', 'x', ${mobile}, '', '', '', ${now}, ${now} from (${series}) t`.execute(
    k,
  );
  await sql`insert into application (office_id, exam_id, candidate_id, position_id, status, form, reason, submitted_at, reviewed_at, created_at, updated_at)
    select ${office.id}, ${exam.id}, id, null, 'approved', '{}', '', ${now}, ${now}, ${now}, ${now} from candidate where office_id = ${office.id} and idno_index like 'bench-%'`.execute(
    k,
  );

  const app = await buildApp(config, { db, dataKey: Buffer.alloc(32, 9) });
  await app.ready();
  const actor = { id: 1, officeId: office.id, name: 'bench', ip: '127.0.0.1' };
  let t0 = performance.now();
  const queued = await app.services.notifications.announce(actor, {
    examId: exam.id,
    audience: 'approved',
    title: '考场安排',
    content: '请于考试当天 8:00 前到达考点。',
    sms: true,
  });
  const announceMs = performance.now() - t0;

  t0 = performance.now();
  const delivered = await app.services.smsWorker.drain();
  const deliverMs = performance.now() - t0;
  const sent = await k
    .selectFrom('sms_log')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  await app.close();
  console.log(
    JSON.stringify({
      database: db.dialect,
      candidates: N,
      announced: queued.recipients,
      smsQueued: queued.sms,
      announceMs: Math.round(announceMs),
      delivered,
      logged: Number(sent.n),
      deliverMs: Math.round(deliverMs),
      perSecond: Math.round((Number(sent.n) / deliverMs) * 1000),
      load: loadavg().map((l) => l.toFixed(2)),
    }),
  );
} finally {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
