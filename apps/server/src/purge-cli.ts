import { parseArgs } from 'node:util';
import { zonedDay } from '@zhikaoyun/shared';
import { buildApp } from './app';
import { openCommandDatabase } from './command-database';
import { nowIso } from './lib/clock';
import type { PurgeReport } from './modules/platform/retention/purge-common';

/**
 * `npm run purge`: retention's purge of the database of DATABASE_URL (docs/security.md, 保存期限),
 * the daily job's work run by hand.
 * - `npm run purge -- --as-of 2030-01-01`: prints what would be anonymised and deleted on that
 *   date, per office and exam, and changes nothing;
 * - `npm run purge -- --dry-run`: the same for today;
 * - `npm run purge`: does today's work.
 * Exit 0: done; 2: bad arguments or configuration.
 */
function print(r: PurgeReport) {
  const would = r.dryRun ? 'would ' : '';
  console.log(`purge as of ${r.asOf}${r.dryRun ? ' (dry run: nothing changed)' : ''}`);
  for (const o of r.offices) {
    console.log(`${o.name} (${o.code}), retention ${o.retentionYears} year(s):`);
    if (o.exams.length === 0) console.log('  no exam past its retention');
    for (const e of o.exams)
      console.log(
        `  exam ${e.examId} 「${e.name}」 ended ${zonedDay(e.endedAt, o.timeZone)}, retention over ${zonedDay(e.anonymiseAt, o.timeZone)}: ${would}anonymise ${e.anonymised} candidate(s); keep ${e.hiredKept} hired, ${e.keptForOtherExams} for other exams; ${would}delete ${e.appeals} handled appeal(s) on their ID numbers`,
      );
    console.log(
      `  dormant accounts: ${would}notify ${o.dormant.notified}, ${would}delete ${o.dormant.deleted} (with ${o.dormant.appeals} handled appeal(s)), kept ${o.dormant.kept} (an application blocks deletion)`,
    );
    console.log(`  identity appeals handled more than ${o.retentionYears} year(s) ago: ${would}delete ${o.expiredAppeals}`);
  }
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({ options: { 'as-of': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } }).values;
  } catch (err) {
    console.error(`purge: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const asOfArg = args['as-of'];
  if (asOfArg !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(asOfArg) || Number.isNaN(Date.parse(asOfArg)))) {
    console.error('purge: give --as-of as YYYY-MM-DD');
    return 2;
  }
  const opened = await openCommandDatabase('purge');
  if (typeof opened === 'number') return opened;
  const { config, db, keys } = opened;
  const app = await buildApp(
    { ...config, webDist: null, logLevel: 'warn', payments: { ...config.payments, sweepMs: 0 } },
    { db, dataKey: keys.current, retentionJob: false },
  );
  try {
    // A date to look at is only ever looked at: the work is done for today alone.
    const dryRun = args['dry-run'] || asOfArg !== undefined;
    const asOf = asOfArg !== undefined ? new Date(`${asOfArg}T00:00:00.000Z`).toISOString() : nowIso();
    print(await app.services.retention.purge({ asOf, dryRun }));
    return 0;
  } catch (err) {
    console.error(`purge failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await app.close();
    await db.destroy();
  }
}

process.exitCode = await main();
