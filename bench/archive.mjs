// `npm run bench:archive` (run `npm run build` first): the exam archive's memory at two sizes,
// ARCHIVE_BENCH_N / 10 and ARCHIVE_BENCH_N applications (default 50,000; ARCHIVE_BENCH_SIZES
// "a,b,…" names the sizes instead). Each size is seeded and archived in a fresh process
// (bench/archive-entry.ts, run as deployed: MALLOC_ARENA_MAX=2) on its own SQLite database, and
// the process's peak RSS while the archive is made is printed: it should not grow with the size.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverBuildOptions } from '../scripts/build.mjs';
import { root } from './lib.mjs';

const N = Number(process.env.ARCHIVE_BENCH_N ?? 50_000);
const SIZES = process.env.ARCHIVE_BENCH_SIZES ? process.env.ARCHIVE_BENCH_SIZES.split(',').map(Number) : [Math.round(N / 10), N];

// Beside the built server, so that the export worker (dist/export-worker.js) is found as in production.
const out = path.join(root, 'apps/server/dist');
mkdirSync(out, { recursive: true });
const entry = path.join(out, 'bench-archive.mjs');
const esbuild = await import('esbuild');
await esbuild.build({
  ...serverBuildOptions(),
  entryPoints: [path.join(root, 'bench/archive-entry.ts')],
  outfile: entry,
  sourcemap: false,
});

const results = [];
for (const size of SIZES) {
  const dir = mkdtempSync(path.join(tmpdir(), 'zk-bench-archive-'));
  try {
    const line = execFileSync(process.execPath, ['--expose-gc', entry], {
      cwd: root,
      env: {
        ...process.env,
        MALLOC_ARENA_MAX: '2',
        ARCHIVE_BENCH_SIZE: String(size),
        BENCH_DB: path.join(dir, 'bench.db'),
        BENCH_DATA_KEY: randomBytes(32).toString('hex'),
      },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .at(-1);
    const r = JSON.parse(line);
    console.log(JSON.stringify(r));
    results.push(r);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.table(results.map(({ load, ...r }) => ({ ...r, load: load.join(' ') })));
