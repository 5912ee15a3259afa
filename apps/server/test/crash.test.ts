import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { newIdno, registration, testPhoto } from './helpers/candidates';
import { DATABASES, type TestDatabase } from './helpers/databases';
import { bundleServer, client, COMPLETE_FORM, freePort, startServerProcess, type ServerProcess } from './helpers/server-process';

/**
 * Crash safety: the real server process is killed with SIGKILL in the middle of
 * a burst of submits, restarted on the same database, and every submit it had acknowledged must
 * be there, the database intact, and the sessions it had issued still valid.
 */
const CANDIDATES = 40;
const CONCURRENCY = 20;
/** Kill after this many acknowledgements, with the rest of the burst still in flight. */
const KILL_AFTER = 15;

let bundle: { entry: string; cleanup(): void };
beforeAll(async () => {
  bundle = await bundleServer('crash');
}, 60_000);
afterAll(() => bundle?.cleanup());

function databaseUrl(db: TestDatabase): string {
  return db.config.kind === 'sqlite' ? `file:${db.config.filename}` : db.config.connectionString;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`crash safety on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    beforeAll(async () => {
      database = await kind.create();
    });
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await database?.drop();
    });

    it('keeps every acknowledged submit and every session through SIGKILL mid-burst', async () => {
      const env = { DATABASE_URL: databaseUrl(database), RATE_LIMITS: 'off' };
      const port = await freePort();
      server = await startServerProcess(bundle.entry, env, port);
      const api = client(server.url);

      // Candidates with complete drafts, ready to submit.
      const { examId, positionId } = await api.openPosition();
      const tokens: string[] = [];
      for (let i = 0; i < CANDIDATES; i++) {
        const r = await api.post('/api/register', { ...registration(newIdno()), ...(await api.captcha()) });
        expect(r.body.success, r.body.msg).toBe(true);
        tokens.push(r.body.data.token as string);
        const saved = await api.post('/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, r.body.data.token);
        expect(saved.body.success, saved.body.msg).toBe(true);
        const photo = await api.uploadPhoto(r.body.data.token, await testPhoto());
        expect(photo.body.success, photo.body.msg).toBe(true);
      }

      // The burst: submits CONCURRENCY at a time; SIGKILL once KILL_AFTER were acknowledged.
      const acknowledged: number[] = [];
      let killed: Promise<void> | null = null;
      let next = 0;
      const victim = server;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < tokens.length && !killed) {
            const i = next++;
            try {
              const r = await api.post('/api/submitApplication', { examId }, tokens[i]);
              if (r.status === 200 && r.body.success && r.body.data.status === 'submitted') acknowledged.push(i);
            } catch {
              // the connection died with the process: not acknowledged, may or may not be there
            }
            if (acknowledged.length >= KILL_AFTER && !killed) killed = victim.stop('SIGKILL');
          }
        }),
      );
      // Assigned inside the callbacks above (the compiler sees only the null it started as).
      await (killed as Promise<void> | null);
      expect(victim.child.signalCode).toBe('SIGKILL');
      expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
      // Some of the burst was still to come when the process died.
      expect(acknowledged.length).toBeLessThan(CANDIDATES);

      if (database.config.kind === 'sqlite') {
        // Before anything touches it again: the file as the crash left it (plus its WAL).
        const raw = new SQLite(database.config.filename);
        expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
        raw.close();
      }

      // Restart on the same database: every acknowledged submit is there, with its history.
      server = await startServerProcess(bundle.entry, env, port);
      const again = client(server.url);
      for (const i of acknowledged) {
        // The session issued before the crash still works: sessions survive a restart.
        const status = await again.get(`/api/getApplyStatus?examId=${examId}`, tokens[i]);
        expect(status.body.success, status.body.msg).toBe(true);
        expect(status.body.data.status).toBe('submitted');
        expect((status.body.data.history as { status: string }[]).map((h) => h.status)).toContain('submitted');
      }
      // And the ones never acknowledged are consistent: submitted with history, or still a draft.
      const db = openDatabase(database.config);
      try {
        const rows = await db.kysely.selectFrom('application').select(['id', 'status', 'submitted_at']).execute();
        expect(rows).toHaveLength(CANDIDATES);
        for (const row of rows) {
          expect(['draft', 'submitted']).toContain(row.status);
          const history = await db.kysely.selectFrom('application_history').select('status').where('application_id', '=', row.id).execute();
          expect(history.some((h) => h.status === 'submitted')).toBe(row.status === 'submitted');
          expect(row.submitted_at !== null).toBe(row.status === 'submitted');
        }
      } finally {
        await db.destroy();
      }
      // A new submit after the restart works too.
      const late = tokens.findIndex((_, i) => !acknowledged.includes(i));
      const r = await again.post('/api/submitApplication', { examId }, tokens[late]);
      expect(r.body.success, r.body.msg).toBe(true);
      await server.stop('SIGTERM');
      server = undefined;
    }, 120_000);
  });
}
