import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { TableSummary } from './manifest';

/** Why pg_dump / pg_restore cannot be used here, or null. */
export function pgToolsProblem(): string | null {
  for (const tool of ['pg_dump', 'pg_restore']) {
    const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
    if (r.error || r.status !== 0) return `${tool} is not installed (apt-get install postgresql-client)`;
  }
  return null;
}

/**
 * Row counts and checksums of every table in `public`, computed by the server itself (md5 of each
 * row's text form, aggregated in a fixed order), inside whatever transaction `client` is in.
 */
export async function summarizePostgres(client: pg.ClientBase): Promise<Record<string, TableSummary>> {
  const tables = (await client.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows;
  const out: Record<string, TableSummary> = {};
  for (const { t } of tables) {
    const ident = `"${t.replace(/"/g, '""')}"`;
    const r = await client.query<{ n: string; h: string | null }>(
      `select count(*)::text as n, md5(string_agg(md5(x::text), '' order by md5(x::text))) as h from public.${ident} x`,
    );
    const row = r.rows[0];
    out[t] = { rows: Number(row?.n ?? 0), checksum: row?.h ?? '' };
  }
  return out;
}

function run(cmd: string, args: string[], io: { stdin?: NodeJS.ReadableStream; stdoutFile?: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [io.stdin ? 'pipe' : 'ignore', io.stdoutFile ? 'pipe' : 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
    // The dump is complete only when its file is flushed, not when pg_dump exits.
    const written = io.stdoutFile && child.stdout ? pipeline(child.stdout, createWriteStream(io.stdoutFile, { mode: 0o600 })) : null;
    if (io.stdin && child.stdin) {
      child.stdin.on('error', () => undefined); // pg_restore that stops early closes its input
      io.stdin.pipe(child.stdin);
    }
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} exited ${code}: ${err.trim()}`));
      void (written ?? Promise.resolve()).then(() => resolve(), reject);
    });
  });
}

/**
 * pg_dump in its custom format, on the same snapshot the manifest is computed on: a repeatable-read
 * transaction exports its snapshot, pg_dump adopts it (--snapshot), and the counts and checksums are
 * taken inside that transaction, so rows, checksums and dump describe one moment while the
 * server goes on writing.
 */
export async function backupPostgres(url: string, out: string): Promise<Record<string, TableSummary>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const snapshot = (await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0]?.s ?? '';
    const dump = run('pg_dump', ['-Fc', `--snapshot=${snapshot}`, '--no-owner', '--no-privileges', `--dbname=${url}`], {
      stdoutFile: out,
    });
    const tables = await summarizePostgres(client);
    await dump;
    await client.query('commit');
    return tables;
  } finally {
    await client.end();
  }
}

export async function postgresTargetProblem(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const n = Number(
      (await client.query<{ n: string }>("select count(*)::text as n from pg_tables where schemaname = 'public'")).rows[0]?.n ?? 0,
    );
    return n === 0 ? null : `the target database already has ${n} table(s); restore only into an empty one`;
  } finally {
    await client.end();
  }
}

/** pg_restore of the payload, in one transaction: a failure leaves the target as empty as it was. */
export function restorePostgres(payload: NodeJS.ReadableStream, url: string): Promise<void> {
  return run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${url}`], {
    stdin: payload,
  });
}

export async function summarizePostgresUrl(url: string): Promise<Record<string, TableSummary>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await summarizePostgres(client);
  } finally {
    await client.end();
  }
}
