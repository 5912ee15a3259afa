// `npm test`: every test. Installs what is missing, builds the product, checks types and lint,
// runs the unit and API suites (vitest: shared, server on SQLite and PostgreSQL, web), then the
// browser suites (Playwright on Debian's Chromium) against the built product, and ends with one
// summary line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer, buildWeb } from './build.mjs';
import { ensureDependencies, mustRun, run } from './lib.mjs';

const started = Date.now();
ensureDependencies();

console.log('› typecheck and lint…');
mustRun('npm', ['run', '--silent', 'typecheck']);
mustRun('npx', ['eslint', '.', '--max-warnings=0']);

buildWeb();
await buildServer();

const out = mkdtempSync(path.join(tmpdir(), 'zk-test-report-'));
const vitestJson = path.join(out, 'vitest.json');
const playwrightJson = path.join(out, 'playwright.json');

console.log('› unit and API tests (vitest)…');
const unit = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);

let e2e = 0;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`✖ ${chromium} not found: the browser suites need Debian's chromium (apt-get install chromium); .ci/run installs it.`);
  e2e = 1;
} else {
  console.log('› browser tests (Playwright, Debian chromium)…');
  e2e = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson },
  });
}

function read(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;
const v = read(vitestJson);
if (v) {
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
}
const p = read(playwrightJson);
if (p?.stats) {
  passed += (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
  failed += p.stats.unexpected ?? 0;
  skipped += p.stats.skipped ?? 0;
}
rmSync(out, { recursive: true, force: true });

const seconds = Math.round((Date.now() - started) / 1000);
const ok = unit === 0 && e2e === 0 && failed === 0;
if (!ok && failed === 0) failed = 1; // a suite that crashed before reporting still fails the run
console.log(`\nnpm test finished in ${seconds}s (unit/API exit ${unit}, browser exit ${e2e})`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
