import { rmSync } from 'node:fs';
import path from 'node:path';
import { BackupFileError, payloadDigest, readBackupFile } from './backup/file-format';
import { checkManifestKey, compareTables } from './backup/manifest';
import { pgToolsProblem, postgresTargetProblem, restorePostgres, summarizePostgresUrl } from './backup/postgres';
import { restoreSqlite, sqliteTargetProblem, summarizeSqlite } from './backup/sqlite';
import { ConfigError, loadConfig } from './config';
import { existingDataKey } from './lib/data-key';

/**
 * `npm run restore -- FILE`: restores a backup of `npm run backup` into the empty database of
 * DATABASE_URL (a non-empty one is refused), after checking that DATA_KEY is the key the backup
 * was made with, then checks every table's rows against the manifest.
 */
async function main(): Promise<number> {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm run restore -- FILE   (into the empty database of DATABASE_URL, with the DATA_KEY of the backup)');
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    return 2;
  }
  let opened;
  try {
    opened = readBackupFile(path.resolve(file));
  } catch (err) {
    console.error(`restore: ${err instanceof BackupFileError ? err.message : err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const { manifest } = opened;
  const db = config.database;
  if (manifest.kind !== db.kind) {
    console.error(`restore: this is a ${manifest.kind} backup and DATABASE_URL names a ${db.kind} database`);
    return 2;
  }
  const dataKey = existingDataKey(config);
  if (!dataKey) {
    console.error('restore: set DATA_KEY to the data key the backup was made with (it is never inside a backup).');
    return 2;
  }
  const verdict = checkManifestKey(manifest, dataKey);
  if (verdict === 'wrong-key') {
    console.error(
      'restore: DATA_KEY is not the key this backup was made with: the ID numbers in it would be unreadable. Set DATA_KEY to the key of that time.',
    );
    return 2;
  }
  if (verdict === 'tampered') {
    console.error('restore: the manifest was changed after the backup was written (its MAC does not match); nothing restored.');
    return 2;
  }
  if ((await payloadDigest(opened)) !== manifest.payload.sha256) {
    console.error('restore: the backup file is damaged (its payload does not match the manifest digest); nothing restored.');
    return 2;
  }
  const target = db.kind === 'sqlite' ? db.filename : db.connectionString;
  if (db.kind === 'sqlite' && db.filename === ':memory:') {
    console.error('restore: DATABASE_URL must name a file or a PostgreSQL database');
    return 2;
  }
  const busy = db.kind === 'sqlite' ? sqliteTargetProblem(db.filename) : await postgresTargetProblem(db.connectionString);
  if (busy) {
    console.error(`restore refused: ${busy}`);
    return 2;
  }
  if (db.kind === 'postgres') {
    const problem = pgToolsProblem();
    if (problem) {
      console.error(`restore: ${problem}`);
      return 2;
    }
  }
  const started = Date.now();
  try {
    if (db.kind === 'sqlite') await restoreSqlite(opened.payload(), target);
    else await restorePostgres(opened.payload(), target);
  } catch (err) {
    console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const found = db.kind === 'sqlite' ? summarizeSqlite(target) : await summarizePostgresUrl(target);
  const problems = compareTables(manifest.tables, found);
  if (problems.length > 0) {
    console.error(`restore: the restored database does not match the backup's manifest:\n  ${problems.join('\n  ')}`);
    if (db.kind === 'sqlite') rmSync(target, { force: true });
    return 1;
  }
  const rows = Object.values(found).reduce((n, t) => n + t.rows, 0);
  console.log(
    `restored ${manifest.kind} backup of ${manifest.createdAt}: ${Object.keys(found).length} tables, ${rows} rows, every count and checksum as in the manifest (${Date.now() - started} ms)`,
  );
  return 0;
}

process.exitCode = await main();
