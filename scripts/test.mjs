// `npm test`: every test. Installs what is missing, builds the product, checks types and lint,
// runs the unit and API suites (vitest: shared, server on SQLite and PostgreSQL, web), then the
// browser suites (Playwright on Debian's Chromium) against the built product, and ends with one
// summary line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { buildServer, buildWeb } from './build.mjs';
import { ensureDependencies, mustRun, run } from './lib.mjs';
import { scanLogDir, TEST_LOG_DIR } from './scan-test-logs.mjs';

const started = Date.now();
ensureDependencies();
// Every server the tests start appends its log lines here; scanned after the browser tests.
rmSync(TEST_LOG_DIR, { recursive: true, force: true });

console.log('› typecheck, lint and dead code…');
mustRun('npm', ['run', '--silent', 'typecheck']);
mustRun('npx', ['eslint', '.', '--max-warnings=0']);
// Dead code: unused files, exports, dependencies (knip.json says where each package starts).
mustRun('npx', ['knip']);

buildWeb();
// 120 KiB gzip of initial JS on every public route (/, /login, /register, /notice-list,
// /notice-detail, /job-positions-only-read; check-web-budget.mjs).
console.log('› web budget (initial JS of the public routes)…');
mustRun('node', ['scripts/check-web-budget.mjs', '--max-kib', '120']);
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

// The log scan: no full ID number, mobile number, test password or token in any server's log.
const scan = scanLogDir();
for (const f of scan.findings.slice(0, 20)) console.error(`✖ log scan: ${f.kind} in ${f.file}:${f.line} (${f.excerpt})`);
console.log(`› log scan: ${scan.files} log file(s), ${Math.round(scan.bytes / 1024)} KiB, ${scan.findings.length} finding(s)`);
const logScan = scan.files > 0 && scan.findings.length === 0 ? 0 : 1;
if (scan.files === 0) console.error(`✖ log scan: no test logs under ${TEST_LOG_DIR}`);

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
// CI shows only the end of the output: the failures are repeated there, each with its first error line.
const failures = [];
/** Browser tests that failed and then passed on CI's one retry: counted as passed, named here. */
const flaky = [];
const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .find((l) => l.trim()) ?? '';
const v = read(vitestJson);
if (v) {
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  for (const file of v.testResults ?? []) {
    const where = path.relative(process.cwd(), file.name ?? '');
    const bad = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of bad) failures.push(`${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
    if (bad.length === 0 && file.status === 'failed') failures.push(`${where}: ${firstLine(file.message)}`);
  }
}
const p = read(playwrightJson);
if (p?.stats) {
  passed += (p.stats.expected ?? 0) + (p.stats.flaky ?? 0);
  failed += p.stats.unexpected ?? 0;
  skipped += p.stats.skipped ?? 0;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const where = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
        if (t.status === 'flaky') flaky.push(`${where}: ${firstLine(t.results?.[0]?.error?.message)}`);
        if (t.status !== 'unexpected') continue;
        failures.push(`${where}: ${firstLine(t.results?.at(-1)?.error?.message)}`);
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.title && !s.title.endsWith('.ts') ? [...titles, s.title] : titles);
  };
  for (const s of p.suites ?? []) walk(s, []);
}
rmSync(out, { recursive: true, force: true });

const seconds = Math.round((Date.now() - started) / 1000);
const ok = unit === 0 && e2e === 0 && logScan === 0 && failed === 0;
if (!ok && failed === 0) failed = 1; // a suite that crashed before reporting still fails the run
if (flaky.length > 0) {
  console.log('\nflaky (failed, then passed on the retry):');
  for (const f of flaky.slice(0, 30)) console.log(`  ⚠ ${f.slice(0, 400)}`);
}
if (failures.length > 0) {
  console.log('\nfailed:');
  for (const f of failures.slice(0, 30)) console.log(`  ✖ ${f.slice(0, 400)}`);
}
console.log(`\nnpm test finished in ${seconds}s (unit/API exit ${unit}, browser exit ${e2e}, log scan ${logScan ? 'failed' : 'clean'})`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(ok ? 0 : 1);
