import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { idnoCheckChar } from '@zhikaoyun/shared';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { TICKET_DEMO_CANDIDATES } from '../src/seed/tickets';
import { createTestApp, TEST_CAPTCHA, type TestApp } from './helpers/app';
import { ACCOUNTING_FORM, submittedApplication } from './helpers/actors';
import { bearer, get, post, registered, uploadPhotoAs } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';

/**
 * What makes a candidate's call cost the same at 1,000 applications and at 1,000,000: it finds
 * its rows through an index. A missing one does not show in any functional test, only at scale:
 * 我的报名 and the photo upload read the whole application table (2.5 s at 1M on SQLite, the
 * event loop blocked throughout) until migration 0020.
 */

const SRC = path.resolve(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [readFileSync(path.join(dir, e.name), 'utf8')] : [],
  );
}

/** The tables the product's code deletes rows from (deleteFrom, deleteInChunks). */
function deletedTables(): Set<string> {
  const out = new Set<string>();
  for (const text of sources(SRC)) {
    for (const m of text.matchAll(/deleteFrom\(\s*'(\w+)/g)) out.add(m[1]!);
    for (const m of text.matchAll(/deleteInChunks\([^,]+,[^,]+,\s*'(\w+)'/g)) out.add(m[1]!);
  }
  return out;
}

interface ForeignKey {
  table: string;
  columns: string[];
  parent: string;
  cascade: boolean;
}

async function schemaOf(t: TestApp): Promise<{ keys: ForeignKey[]; indexes: Map<string, string[][]> }> {
  const k = t.db.kysely;
  const keys: ForeignKey[] = [];
  const indexes = new Map<string, string[][]>();
  const add = (table: string, columns: string[]) => indexes.set(table, [...(indexes.get(table) ?? []), columns]);
  if (t.db.dialect === 'sqlite') {
    const tables = (
      await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(k)
    ).rows.map((r) => r.name);
    for (const table of tables) {
      const info = (await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(k)).rows;
      add(
        table,
        info
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => c.name),
      );
      // A partial index (WHERE status = 'pending') finds only some rows: not a way to all of them.
      for (const { name } of (await sql<{ name: string }>`select name from pragma_index_list(${table}) where partial = 0`.execute(k)).rows)
        add(
          table,
          (await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(k)).rows.map((r) => r.name),
        );
      const fks = (
        await sql<{
          id: number;
          seq: number;
          table: string;
          from: string;
          on_delete: string;
        }>`select * from pragma_foreign_key_list(${table})`.execute(k)
      ).rows;
      for (const id of new Set(fks.map((f) => f.id))) {
        const parts = fks.filter((f) => f.id === id).sort((a, b) => a.seq - b.seq);
        keys.push({ table, columns: parts.map((p) => p.from), parent: parts[0]!.table, cascade: parts[0]!.on_delete === 'CASCADE' });
      }
    }
  } else {
    const fks = (
      await sql<{ table: string; parent: string; columns: string[]; cascade: boolean }>`
        select c.conrelid::regclass::text as table, c.confrelid::regclass::text as parent, c.confdeltype = 'c' as cascade,
               array(select a.attname::text from unnest(c.conkey) with ordinality u(n, i)
                     join pg_attribute a on a.attrelid = c.conrelid and a.attnum = u.n order by u.i) as columns
        from pg_constraint c join pg_namespace s on s.oid = c.connamespace
        where c.contype = 'f' and s.nspname = current_schema()`.execute(k)
    ).rows;
    keys.push(...fks);
    const idx = (
      await sql<{ table: string; columns: string[] }>`
        select i.indrelid::regclass::text as table,
               array(select a.attname::text from unnest(i.indkey) with ordinality u(n, o)
                     join pg_attribute a on a.attrelid = i.indrelid and a.attnum = u.n order by u.o) as columns
        from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace s on s.oid = c.relnamespace
        where s.nspname = current_schema() and i.indpred is null`.execute(k)
    ).rows;
    for (const r of idx) add(r.table, r.columns);
  }
  return { keys, indexes };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`indexes on ${kind.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('every foreign key whose parent rows the product deletes has an index on its columns', async () => {
      const { keys, indexes } = await schemaOf(t);
      // Rows go when the code deletes them, and with them every row that cascades from them.
      const deleted = deletedTables();
      expect(deleted.has('candidate') && deleted.has('exam_room')).toBe(true);
      for (let grew = true; grew;) {
        grew = false;
        for (const key of keys)
          if (key.cascade && deleted.has(key.parent) && !deleted.has(key.table)) {
            deleted.add(key.table);
            grew = true;
          }
      }
      // A deleted parent row makes the database look for its children by these columns: without
      // an index, a read of the whole child table for each one.
      const unindexed = keys
        .filter((key) => deleted.has(key.parent))
        .filter((key) => !(indexes.get(key.table) ?? []).some((ix) => key.columns.every((c, i) => ix[i] === c)))
        .map((key) => `${key.table}(${key.columns.join(', ')}) → ${key.parent}`);
      expect(unindexed).toEqual([]);
    });
  });
}

/** Tables that grow with the candidates: a candidate's call must find its rows in them by key. */
const GROWING = new Set([
  'application',
  'application_history',
  'candidate',
  'photo',
  'session',
  'message',
  'sms_outbox',
  'sms_log',
  'sms_code',
  'payment_order',
  'payment_event',
  'fee_waiver',
  'exam_seat',
  'admission_ticket',
  'score_total',
  'score_mark',
  'score_review',
  'stage_result',
  'audit_log',
  'appeal',
  'captcha',
]);
/** Narrowing to an office, an exam or a status still leaves the whole exam to read. */
const BROAD = new Set(['office_id', 'exam_id', 'status']);

describe('query plans of a candidate’s calls (SQLite)', () => {
  let t: TestApp;
  const executed = new Set<string>();
  let recording = false;
  const restore: (() => void)[] = [];

  beforeAll(async () => {
    // Every statement any connection of the app runs while recording (the cached ones included).
    const probe = new SQLite(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
    probe.close();
    for (const name of ['run', 'get', 'all', 'iterate']) {
      const original = proto[name]!;
      proto[name] = function (this: { source: string }, ...args: unknown[]) {
        if (recording) executed.add(this.source);
        return original.apply(this, args);
      };
      restore.push(() => (proto[name] = original));
    }
    t = await createTestApp(sqlite, { RATE_LIMITS: 'off' }, { demoStages: true });
  });
  afterAll(async () => {
    for (const r of restore) r();
    await t?.close();
  });

  it('find their rows in the growing tables by key, never by reading an exam', async () => {
    recording = true;
    // A new candidate's registration, from the account to a withdrawn application.
    const fresh = await registered(t);
    const h = bearer(fresh.token);
    const { examId } = await submittedApplication(t, fresh.token);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/getUserInfo'],
      ['GET', `/api/getApplication?examId=${examId}`],
      ['GET', '/api/getMyApplications'],
      ['GET', `/api/getApplyStatus?examId=${examId}`],
      ['GET', '/api/getMessageList?page=1&pageSize=10'],
      ['GET', '/api/getUnreadCount'],
      ['POST', '/api/withdrawApplication', { examId }],
      ['POST', '/api/saveApplication', { examId, form: ACCOUNTING_FORM }],
    ];
    for (const [method, url, body] of calls) {
      if (url === '/api/saveApplication') expect((await uploadPhotoAs(t, fresh.token)).body.success).toBe(true);
      const r = method === 'GET' ? await get(t, url, h) : await post(t, url, body, h);
      expect(r.body.success, `${url}: ${r.body.msg}`).toBe(true);
    }
    // Candidates of the demo's later exams: the admission ticket, then the score and the stages after it.
    for (const [who, urls] of [
      [TICKET_DEMO_CANDIDATES[0]!, ['getApplication', 'getAdmissionTicket', 'getPaymentStatus', 'getMySiteCity']],
      [SCORE_DEMO_CANDIDATES[0]!, ['getApplication', 'getMyScore', 'getMyStages']],
    ] as const) {
      const login = await post(t, '/api/login', {
        idno: who.first17 + idnoCheckChar(who.first17),
        password: DEMO_CANDIDATE_PASSWORD,
        captchaId: (await get(t, '/api/getCode')).body.data.captchaId,
        captcha: TEST_CAPTCHA,
      });
      expect(login.body.success, login.body.msg).toBe(true);
      const d = bearer(login.body.data.token as string);
      const exam = ((await get(t, '/api/getMyApplications', d)).body.data as { exam: { id: number } }[])[0]!.exam.id;
      for (const name of urls) {
        const r = await get(t, `/api/${name}?examId=${exam}`, d);
        expect(r.body.success, `${name}: ${r.body.msg}`).toBe(true);
      }
      // 加入日历 (decision 038): a file, not an envelope.
      const calendar = await t.app.inject({ method: 'GET', url: `/api/getExamCalendar?examId=${exam}`, headers: d });
      expect(calendar.statusCode, calendar.body).toBe(200);
    }
    recording = false;

    const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
    const conn = new SQLite(file, { readonly: true });
    try {
      const broad: string[] = [];
      for (const source of executed) {
        if (!/^\s*(select|update|delete|insert|with)/i.test(source)) continue;
        const aliases = new Map<string, string>();
        for (const m of source.matchAll(/"(\w+)" as "(\w+)"/g)) aliases.set(m[2]!, m[1]!);
        const plan = explain(conn, source);
        for (const line of plan) {
          const m = /^(SCAN|SEARCH) (\w+)(?: USING [^(]*)?(?: \((.*)\))?(?: LEFT-JOIN)?$/.exec(line);
          if (!m) continue;
          const table = aliases.get(m[2]!) ?? m[2]!;
          if (!GROWING.has(table)) continue;
          const keyed = (m[3] ?? '')
            .split(' AND ')
            .map((c) => c.replace(/[=<>?].*$/, '').trim())
            .filter((c) => c !== '' && !BROAD.has(c));
          if (m[1] === 'SCAN' || keyed.length === 0) broad.push(`${line}\n    in: ${source.replace(/\s+/g, ' ').slice(0, 300)}`);
        }
      }
      expect(executed.size).toBeGreaterThan(30);
      expect(broad).toEqual([]);
    } finally {
      conn.close();
    }
  });
});

/** The plan of a statement as SQLite would run it (parameters bound to null: plans do not depend on them). */
function explain(conn: SQLite.Database, source: string): string[] {
  const statement = conn.prepare(`explain query plan ${source}`);
  for (let n = 0; n <= 200; n++) {
    try {
      return (statement.all(...Array<null>(n).fill(null)) as { detail: string }[]).map((r) => r.detail);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
    }
  }
  throw new Error(`could not bind: ${source}`);
}
