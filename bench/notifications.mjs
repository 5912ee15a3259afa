// `node bench/notifications.mjs`: an announcement with SMS to BENCH_CANDIDATES (100,000)
// candidates queued in one transaction (target under 10 s), then the outbox delivered through
// the `log` provider (target at least 2,000 messages/s). Three runs, the median reported, with
// the machine's load. BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL (that database is
// emptied of candidates first); the default is a fresh SQLite file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverBuildOptions } from '../scripts/build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'apps/server/dist/bench-notifications');
mkdirSync(out, { recursive: true });
const entry = path.join(out, 'entry.mjs');
const esbuild = await import('esbuild');
await esbuild.build({
  ...serverBuildOptions(),
  entryPoints: [path.join(root, 'bench/notifications-entry.ts')],
  outfile: entry,
  sourcemap: false,
});

const runs = [];
try {
  for (let i = 0; i < 3; i++) {
    const line = execFileSync(process.execPath, [entry], {
      cwd: root,
      env: process.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .at(-1);
    const r = JSON.parse(line);
    console.log(`run ${i + 1}: ${JSON.stringify(r)}`);
    runs.push(r);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[1];
console.log(
  `\n${runs[0].database}, ${runs[0].candidates} candidates (median of 3; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}):\n` +
    `  announcement queued (messages + SMS, one transaction): ${median('announceMs')} ms (target < 10000)\n` +
    `  outbox delivered through the log provider: ${median('perSecond')} messages/s (target >= 2000)`,
);
