import { POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, draftExam } from '../test/helpers/actors';
import { createTestApp, HEAVY_WORKER, type TestApp } from '../test/helpers/app';
import { bearer, get, post, registered } from '../test/helpers/candidates';
import { DATABASES } from '../test/helpers/databases';
import { saveTwoPapers, seedTicketHolders } from './ticket-holders';
import { createHeavyTasks } from '../src/heavy-tasks';
import { createArrangementRepository } from '../src/modules/arrangement/arrangement/repository';
import { createScoresRepository } from '../src/modules/scores/scores/repository';
import { markRows, totalRows } from '../src/modules/scores/scores/score-rows';
import { packSubjects, packTickets } from '../src/modules/scores/scores/sheet';

/**
 * `npm run bench:heavy`: what the console's heavy calls cost the candidates (issue 20, decision
 * 014). On a real listening server with 100,000 confirmed candidates holding tickets:
 * - importScores of 100,000 rows (.xlsx), getScoreRanking, arrangeSeats of 100,000 candidates
 *   in two sittings, importPositions of 5,000 rows (into a fresh exam each time);
 * - each three times through HTTP while two other processes ask getApplication (a signed-in
 *   candidate: session and application read from the database) and getWSystem (a cached public
 *   read) as fast as they are answered; the call's time, the event loop's longest gap (a 1 ms
 *   interval's) and its delay p99 (monitorEventLoopDelay), and the candidates' p50/p99/max;
 * - the medians of the three, the quiet candidates' figures and the machine's load.
 * Before it, each phase alone (no candidates): the sheet read and totalled, the ranking and the
 * seats computed (in the heavy worker, as the server runs them), the reads and the writes.
 * Prints one JSON line per database. A bench: never part of `npm test`; the bench config does not
 * build dist/, so run `npm run build` (or the server tests) first.
 */
const N = 100_000;
const POSITIONS = 5_000;
const RUNS = 3;
const CHUNK = 1000;

const loadScript = new URL('./heavy-load.mjs', import.meta.url);

interface LoopFigures {
  maxGapMs: number;
  loopP99Ms: number;
}

function watchLoop(): () => LoopFigures {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  return () => {
    clearInterval(timer);
    h.disable();
    return { maxGapMs: Math.round(Math.max(maxGap, performance.now() - last)), loopP99Ms: Math.round(h.percentile(99) / 1e5) / 10 };
  };
}

interface Latency {
  n: number;
  errors: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
}

async function startLoad(url: string, connections: number, token = ''): Promise<() => Promise<Latency>> {
  const child: ChildProcess = fork(loadScript, [url, String(connections), token], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  return async () => {
    const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await done;
    return JSON.parse(out) as Latency;
  };
}

const median = (xs: (number | null)[]) => {
  const s = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return s.length === 0 ? null : s[Math.floor(s.length / 2)]!;
};
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

interface Run {
  ms: number;
  loop: LoopFigures;
  getApplication: Latency;
  getWSystem: Latency;
  load: string;
}

function summary(runs: Run[]) {
  return {
    ms: median(runs.map((r) => r.ms)),
    maxGapMs: median(runs.map((r) => r.loop.maxGapMs)),
    loopP99Ms: median(runs.map((r) => r.loop.loopP99Ms)),
    getApplication: {
      p50: median(runs.map((r) => r.getApplication.p50)),
      p99: median(runs.map((r) => r.getApplication.p99)),
      max: median(runs.map((r) => r.getApplication.max)),
    },
    getWSystem: {
      p50: median(runs.map((r) => r.getWSystem.p50)),
      p99: median(runs.map((r) => r.getWSystem.p99)),
      max: median(runs.map((r) => r.getWSystem.max)),
    },
    load: runs.map((r) => r.load),
  };
}

async function book(rows: (string | number)[][], name: string): Promise<Buffer> {
  const b = new ExcelJS.Workbook();
  const ws = b.addWorksheet(name);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await b.xlsx.writeBuffer());
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`heavy work on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let examId: number;
    let base: string;
    let candidateToken: string;
    let scoreFile: Buffer;
    let positionFile: Buffer;

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      admin = await adminToken(t);
      examId = (await get(t, '/api/getCurrentExam')).body.data.id as number;
      candidateToken = (await registered(t)).token;
      const k = t.db.kysely;
      const officeId = 1;
      await saveTwoPapers(t, admin, examId);
      // 11 sites of 99 rooms of 99 seats: 107,811 seats per sitting.
      for (let s = 0; s < 11; s++)
        expect(
          (
            await post(
              t,
              '/api/admin/saveExamSite',
              { examId, name: `考点${s}`, address: `某路 ${s} 号`, rooms: 99, seatsPerRoom: 99 },
              bearer(admin),
            )
          ).body.success,
        ).toBe(true);
      await seedTicketHolders(k, { officeId, examId, n: N, chunk: CHUNK, prefix: 'heavy' });
      const scoreRows: (string | number)[][] = [['准考证号', '公共基础知识', '专业知识', '加分']];
      for (let i = 0; i < N; i++)
        scoreRows.push([
          `26${String(i).padStart(8, '0')}`,
          i % 97 === 0 ? '缺考' : ((i * 7) % 201) / 2,
          i % 89 === 0 ? '违纪' : ((i * 13) % 201) / 2,
          i % 50 === 0 ? 5 : '',
        ]);
      scoreFile = await book(scoreRows, '成绩');
      const positionRows: (string | number)[][] = [[...POSITION_SHEET_COLUMNS]];
      for (let i = 0; i < POSITIONS; i++)
        positionRows.push([
          `B${String(i).padStart(5, '0')}`,
          `岗位${i}`,
          `单位${i % 300}`,
          1 + (i % 5),
          '负责日常工作',
          '本科',
          '汉语言文学、档案学',
          35,
          '不限',
          '不限',
          0,
          '',
        ]);
      positionFile = await book(positionRows, '岗位表');
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    }, 900_000);
    afterAll(async () => {
      await t?.close();
    });

    async function measured(job: () => Promise<void>): Promise<Run> {
      const stopApp = await startLoad(`${base}/api/getApplication?examId=${examId}`, 2, candidateToken);
      const stopSys = await startLoad(`${base}/api/getWSystem`, 2);
      const stop = watchLoop();
      const started = performance.now();
      await job();
      const ms = Math.round(performance.now() - started);
      const loop = stop();
      return { ms, loop, getApplication: await stopApp(), getWSystem: await stopSys(), load: load() };
    }

    type Answer = { success: boolean; msg?: string; data: { imported: number; arranged: number; created: number } };
    async function call(path: string, init: RequestInit): Promise<Answer> {
      const res = await fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as object), ...bearer(admin) } });
      return (await res.json()) as Answer;
    }
    const form = (fields: Record<string, string>, file: Buffer) => {
      const f = new FormData();
      for (const [key, value] of Object.entries(fields)) f.set(key, value);
      f.set('file', new Blob([new Uint8Array(file)]), 'sheet.xlsx');
      return f;
    };

    /** Each phase alone (no candidates asking): its time and the event loop's longest gap meanwhile. */
    async function phase<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; maxGapMs: number }> {
      const stop = watchLoop();
      const started = performance.now();
      const value = await work();
      const ms = Math.round(performance.now() - started);
      return { value, ms, maxGapMs: stop().maxGapMs };
    }

    it('times the phases of each job', async () => {
      // The phases as the server runs them: the CPU-bound ones in the heavy worker (its pool as
      // composition.ts makes it), the writes in one transaction here.
      const heavy = createHeavyTasks(HEAVY_WORKER, { size: 2, workerData: { database: t.config.database } });
      const scores = createScoresRepository(t.db);
      const seats = createArrangementRepository(t.db);
      const officeId = 1;
      const out: Record<string, { ms: number; maxGapMs: number }[]> = {};
      const note = (name: string, r: { ms: number; maxGapMs: number }) => (out[name] ??= []).push({ ms: r.ms, maxGapMs: r.maxGapMs });
      for (let i = 0; i < RUNS; i++) {
        const [subjects, tickets] = await Promise.all([scores.subjects(officeId, examId), scores.tickets(officeId, examId)]);
        const at = new Date().toISOString();
        const parsed = await phase(() =>
          heavy.readScores({
            file: scoreFile,
            examId,
            officeId,
            at,
            subjects: packSubjects(subjects),
            tickets: packTickets(tickets),
            rule: { pass_line: 0, bonus_enabled: 0 },
          }),
        );
        note('scores: parse + totals (worker)', parsed);
        const sheet = parsed.value;
        note(
          'scores: writes',
          await phase(() =>
            scores.commit(async (trx) => {
              await scores.ensureRule(trx, officeId, examId, at);
              await scores.replaceScores(trx, officeId, examId, totalRows(sheet.totals), markRows(sheet.marks), at);
            }),
          ),
        );
        note('ranking (worker)', await phase(() => heavy.rank({ officeId, examId })));
        const read = await phase(async () => {
          const [subjectRows, rooms, confirmed] = await Promise.all([
            seats.subjects(officeId, examId),
            seats.rooms(officeId, examId),
            seats.confirmed(officeId, examId),
          ]);
          return { subjectRows, rooms, confirmed };
        });
        note('arrangement: read', read);
        const apps = read.value.confirmed.apps;
        const arranged = await phase(() =>
          heavy.arrange({
            seed: `bench${i}`,
            rooms: read.value.rooms.map((r) => ({ roomId: r.id, siteId: r.site_id, seats: r.seats, city: r.city })),
            subjects: read.value.subjectRows.map((s) => ({ id: s.id, startAt: s.start_at })),
            allSubjects: read.value.subjectRows.map((s) => s.id),
            links: read.value.confirmed.links,
            application: Int32Array.from(apps, (a) => a.id),
            position: Int32Array.from(apps, (a) => a.position_id ?? -1),
            city: new Int32Array(apps.length).fill(-1),
            cities: [],
          }),
        );
        note('arrangement: compute (worker)', arranged);
        if (!arranged.value.ok) throw new Error('short of seats');
        const p = arranged.value.seats;
        const rows = {
          length: p.application.length,
          slice: (from: number, to: number) =>
            Array.from({ length: Math.min(to, p.application.length) - from }, (_, j) => ({
              sitting: p.sittings[p.sitting[from + j]!]!,
              subject_id: p.subject[from + j]!,
              application_id: p.application[from + j]!,
              site_id: p.site[from + j]!,
              room_id: p.room[from + j]!,
              seat: p.seat[from + j]!,
            })),
        };
        note('arrangement: writes', await phase(() => seats.commit((trx) => seats.replaceSeats(trx, officeId, examId, rows))));
        note('positions: parse (worker)', await phase(() => heavy.readPositions(examId, positionFile)));
      }
      await heavy.close();
      const medians = Object.fromEntries(
        Object.entries(out).map(([name, rs]) => [name, { ms: median(rs.map((r) => r.ms)), maxGapMs: median(rs.map((r) => r.maxGapMs)) }]),
      );
      console.info(`heavy work phases on ${kind.name} (medians of ${RUNS}, load ${load()}): ${JSON.stringify(medians)}`);
    }, 1_800_000);

    it(`imports ${N} scores, ranks them, seats ${N} candidates and imports ${POSITIONS} positions, candidates asking meanwhile`, async () => {
      const quiet = [await measured(() => new Promise((resolve) => setTimeout(resolve, 3000)))];
      const jobs: Record<string, () => Promise<void>> = {
        importScores: async () => {
          const r = await call('/api/admin/importScores', { method: 'POST', body: form({ examId: String(examId) }, scoreFile) });
          expect(r.success, r.msg).toBe(true);
          expect(r.data.imported).toBe(N);
        },
        getScoreRanking: async () => {
          const r = await call(`/api/admin/getScoreRanking?examId=${examId}`, {});
          expect(r.success, r.msg).toBe(true);
        },
        arrangeSeats: async () => {
          const r = await call('/api/admin/arrangeSeats', {
            method: 'POST',
            body: JSON.stringify({ examId, seed: 'bench' }),
            headers: { 'content-type': 'application/json' },
          });
          expect(r.success, r.msg).toBe(true);
          expect(r.data.arranged).toBe(N);
        },
        importPositions: async () => {
          const exam = await draftExam(t, admin, `岗位导入 ${Math.random()}`);
          const r = await call(`/api/admin/importPositions?examId=${exam}`, { method: 'POST', body: form({}, positionFile) });
          expect(r.success, r.msg).toBe(true);
          expect(r.data.created).toBe(POSITIONS);
        },
      };
      const results: Record<string, ReturnType<typeof summary>> = { quiet: summary(quiet) };
      for (const [name, job] of Object.entries(jobs)) {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i++) runs.push(await measured(job));
        results[name] = summary(runs);
        console.info(`${kind.name} ${name}: ${JSON.stringify(results[name])}`);
      }
      console.info(`heavy work on ${kind.name} (medians of ${RUNS}): ${JSON.stringify(results)}`);
    }, 1_800_000);
  });
}
