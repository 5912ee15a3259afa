import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeBackupFile, sha256OfFile } from './backup/file-format';
import { sealManifest } from './backup/manifest';
import { backupPostgres, pgToolsProblem } from './backup/postgres';
import { backupSqlite, summarizeSqlite } from './backup/sqlite';
import { ConfigError, loadConfig } from './config';
import { existingDataKey } from './lib/data-key';

/**
 * `npm run backup -- --out FILE`: a consistent online backup of DATABASE_URL while the servers run
 * and write (SQLite's online backup API; PostgreSQL's pg_dump -Fc on an exported snapshot), with a
 * manifest of every table's row count and checksum. The data key is not in it (docs/deploy.md).
 */
async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  if (!values.out) {
    console.error('usage: npm run backup -- --out FILE');
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    return 2;
  }
  const dataKey = existingDataKey(config);
  if (!dataKey) {
    console.error('backup: no data key (set DATA_KEY as the servers have it): the manifest is sealed with it.');
    return 2;
  }
  const out = path.resolve(values.out);
  const work = mkdtempSync(path.join(tmpdir(), 'zk-backup-'));
  const payload = path.join(work, 'payload');
  const started = Date.now();
  try {
    const db = config.database;
    let tables;
    if (db.kind === 'sqlite') {
      if (db.filename === ':memory:') throw new Error('a database in memory cannot be backed up');
      await backupSqlite(db.filename, payload);
      tables = summarizeSqlite(payload);
    } else {
      const problem = pgToolsProblem();
      if (problem) throw new Error(problem);
      tables = await backupPostgres(db.connectionString, payload);
    }
    const manifest = sealManifest(
      {
        format: 1,
        kind: db.kind,
        createdAt: new Date(started).toISOString(),
        payload: { bytes: statSync(payload).size, sha256: await sha256OfFile(payload) },
        tables,
      },
      dataKey,
    );
    await writeBackupFile(out, manifest, payload);
    const rows = Object.values(tables).reduce((n, t) => n + t.rows, 0);
    console.log(
      `backup written: ${out} (${db.kind}, ${Object.keys(tables).length} tables, ${rows} rows, ${statSync(out).size} bytes, ${Date.now() - started} ms)`,
    );
    console.log('The data key is not in it: keep DATA_KEY apart from the backups (docs/deploy.md).');
    return 0;
  } catch (err) {
    rmSync(out, { force: true });
    console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
