// Bundled and run by bench/tickets.mjs: a fresh SQLite database (BENCH_DB) with the demo office,
// an exam with two papers at different times, sites enough for BENCH_CANDIDATES confirmed
// candidates, and those candidates written in bulk; then the product's own arrangement
// (service call: read, arrange, one transaction) and publishing, timed. The first
// BENCH_SESSIONS candidates have real ID numbers, a password and a photo, so the server the
// bench starts next can sign them in and serve their ticket PDFs.
import { sql } from 'kysely';
import { loadavg } from 'node:os';
import { idPhotoJpeg } from '../apps/server/src/seed/id-photo';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { seedDemo } from '../apps/server/src/seed/demo';
import { insertIdPhoto } from '../apps/server/src/seed/fixtures';
import { createDataCipher } from '../apps/server/src/lib/crypto';
import { hashPassword } from '../apps/server/src/lib/password';
import { idnoCheckChar } from '../packages/shared/src/access/idno';

const PASSWORD = 'bench password 1';
/** The i-th downloading candidate's ID number: born 1990-01-01 plus i days. */
function idnoFor(i: number): string {
  const birth = new Date(Date.UTC(1990, 0, 1) + i * 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const first17 = `110101${birth}${String(i % 1000).padStart(3, '0')}`;
  return first17 + idnoCheckChar(first17);
}

const N = Number(process.env.BENCH_CANDIDATES ?? 100_000);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const DB_FILE = process.env.BENCH_DB!;
const DATA_KEY = Buffer.from(process.env.BENCH_DATA_KEY!, 'hex');
const SEATS = 30;
const ROOMS = 99;

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', DATABASE_URL: `file:${DB_FILE}`, SMS_WORKER: 'off' }, process.cwd());
const db = openDatabase(config.database);
const cipher = createDataCipher(DATA_KEY, []);
try {
  await migrateToLatest(db);
  await seedDemo(db, { adminPassword: 'bench-admin-password' });
  const k = db.kysely;
  const office = await k.selectFrom('office').select('id').executeTakeFirstOrThrow();
  const now = new Date();
  const at = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString();
  const stamp = now.toISOString();
  const exam = await k
    .insertInto('exam')
    .values({
      office_id: office.id,
      name: '压测考试（准考证）',
      published: 1,
      registration_start: at(-60),
      registration_end: at(-50),
      review_start: at(-60),
      review_end: at(-45),
      confirmation_start: at(-40),
      confirmation_end: at(-30),
      config: JSON.stringify({ fields: [], required: [] }),
      exam_code: '09',
      ticket_template: '{YY}{EXAM}{SEQ}',
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [name, h] of [
    ['公共基础知识', 1],
    ['专业知识', 6],
  ] as const)
    await k
      .insertInto('exam_subject')
      .values({
        office_id: office.id,
        exam_id: exam.id,
        name,
        start_at: new Date(Date.UTC(2027, 2, 1, h)).toISOString(),
        end_at: new Date(Date.UTC(2027, 2, 1, h + 2)).toISOString(),
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();

  const app = await buildApp(config, { db, dataKey: DATA_KEY });
  await app.ready();
  const staff = { id: 1, sessionId: 0, officeId: office.id, username: 'admin', name: 'bench', role: 'admin' as const, units: [] };
  const sites = Math.ceil(N / (SEATS * ROOMS));
  for (let i = 0; i < sites; i++)
    await app.services.arrangement.saveSite(
      staff,
      { examId: exam.id, name: `压测考点 ${i + 1}`, address: `压测路 ${i + 1} 号`, rooms: ROOMS, seatsPerRoom: SEATS },
      '127.0.0.1',
    );

  // The candidates and their confirmed applications, in bulk (not what is measured).
  const series = sql`with recursive s(n) as (select 1 union all select n + 1 from s where n < ${N}) select n from s`;
  await sql`insert into candidate (office_id, idno_index, idno_enc, name, birthday, sex, password_hash, mobile, email, question, answer_enc, created_at, updated_at)
    select ${office.id}, 'bench-' || n, 'x', '压测考生' || n, '1995-01-01', '男', 'x', '13800000000', '', '', '', ${stamp}, ${stamp} from (${series}) t`.execute(
    k,
  );
  await sql`insert into application (office_id, exam_id, candidate_id, position_id, status, form, reason, submitted_at, reviewed_at, created_at, updated_at)
    select ${office.id}, ${exam.id}, id, null, 'confirmed', '{}', '', ${stamp}, ${stamp}, ${stamp}, ${stamp} from candidate where office_id = ${office.id} and idno_index like 'bench-%'`.execute(
    k,
  );
  // The candidates who download: real ID numbers (encrypted, blind-indexed), a password, a photo.
  const hash = await hashPassword(PASSWORD);
  const photo = await idPhotoJpeg();
  const first = await k.selectFrom('candidate').select('id').where('idno_index', 'like', 'bench-%').orderBy('id').limit(SESSIONS).execute();
  const idnos: string[] = [];
  for (const [i, c] of first.entries()) {
    const idno = idnoFor(i + 1);
    idnos.push(idno);
    const photoId = await insertIdPhoto(k, { officeId: office.id, candidateId: c.id, photo, stamp });
    await k
      .updateTable('candidate')
      .set({
        idno_index: cipher.blindIndex('idno', idno),
        idno_enc: cipher.encrypt(idno),
        password_hash: hash,
        photo_id: photoId,
        name: `压测考生${i + 1}`,
      })
      .where('id', '=', c.id)
      .execute();
  }

  let t0 = performance.now();
  const arranged = await app.services.arrangement.arrangeSeats(staff, { examId: exam.id, seed: 'bench' }, '127.0.0.1');
  const arrangeMs = performance.now() - t0;
  t0 = performance.now();
  const published = await app.services.tickets.publish(staff, { examId: exam.id, printStart: at(-1), printEnd: at(10) }, '127.0.0.1');
  const publishMs = performance.now() - t0;
  const seats = await k
    .selectFrom('exam_seat')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('exam_id', '=', exam.id)
    .executeTakeFirstOrThrow();
  await app.close();
  console.log(
    JSON.stringify({
      examId: exam.id,
      candidates: N,
      ...arranged,
      seats: Number(seats.n),
      arrangeMs: Math.round(arrangeMs),
      issued: published.issued,
      publishMs: Math.round(publishMs),
      load: loadavg().map((l) => l.toFixed(2)),
      password: PASSWORD,
      idnos,
    }),
  );
} finally {
  await db.destroy();
}
