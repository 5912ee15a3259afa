import { defineConfig, devices } from '@playwright/test';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the built
 * product, served by the real server on a fresh SQLite database made for this run.
 */
const PORT = Number(process.env.E2E_PORT ?? 4310);
export const E2E_DB_DIR = process.env.E2E_DB_DIR ?? path.join(tmpdir(), `zhikaoyun-e2e-${process.pid}`);
process.env.E2E_DB_DIR = E2E_DB_DIR;

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : 2,
  // On CI a test that fails is run once more: a pass then counts, and npm test names it as flaky
  // in its summary, so flakiness shows without failing a landing. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  // Generous: on a 2-core machine the server, two browsers and argon2 share the CPU.
  expect: { timeout: 15_000 },
  reporter: process.env.PW_REPORTER ? [[process.env.PW_REPORTER]] : [['list']],
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    ...devices['Pixel 7'],
    browserName: 'chromium',
    locale: 'zh-CN',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  // The console journey publishes a second open exam; it runs after every other suite so that
  // "the current exam" the others rely on never changes under them.
  // The candidate's two-exam journey publishes yet another open exam: after the console journey.
  projects: [
    {
      name: 'site',
      testIgnore:
        /(console-journey|console-live-changes|candidate-journey-two-exams|arrangement-console|door-check|whole-exam|phone-verification|platform-console|office-host|go-live)\.spec\.ts/,
    },
    // Offices of their own on host names of their own (*.test), which Chromium resolves to this
    // machine; go-live.spec.ts starts a server of its own on an empty database (SEED_DEMO=off).
    {
      name: 'office-host',
      testMatch: /(office-host|go-live)\.spec\.ts/,
      use: {
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.test 127.0.0.1'],
        },
      },
    },
    // console-live-changes publishes an exam open for registration too (and takes it back at its end).
    { name: 'console-journey', testMatch: /(console-journey|console-live-changes)\.spec\.ts/, dependencies: ['site'] },
    { name: 'journey-two-exams', testMatch: /candidate-journey-two-exams\.spec\.ts/, dependencies: ['console-journey'] },
    // Publishes an exam open for registration for a while (its candidate applies through it): after
    // the suites that look for "the exam open for registration".
    // The door check's exam has a paper under way now: the door check of no other suite looks for one.
    { name: 'arrangement', testMatch: /(arrangement-console|door-check)\.spec\.ts/, dependencies: ['journey-two-exams'] },
    // A whole exam driven in the browser: open for registration for a while, and its candidates
    // register without an SMS code; before phone verification is turned on.
    { name: 'whole-exam', testMatch: /whole-exam\.spec\.ts/, dependencies: ['arrangement'] },
    // The platform console (issue 31): changes the operator's one-time password and creates an
    // office beside the demo one, which no other suite reads; it needs no other suite first.
    { name: 'platform', testMatch: /platform-console\.spec\.ts/ },
    // Turns phone verification on for the office (registration then needs an SMS code): last.
    { name: 'phone-verification', testMatch: /phone-verification\.spec\.ts/, dependencies: ['whole-exam'] },
  ],
  webServer: {
    // The server's log lines also go to the test log folder, scanned after the whole suite.
    command: 'node scripts/serve-with-log.mjs',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      NODE_ENV: 'test',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${path.join(E2E_DB_DIR, 'e2e.db')}`,
      CAPTCHA_FIXED: '2468',
      SEED_ADMIN_PASSWORD: 'e2e-admin-password',
      // The platform operator's first password: changed at the first sign-in (platform-console.spec.ts).
      PLATFORM_ADMIN_PASSWORD: 'e2e-platform-password',
      LOG_LEVEL: 'info',
      // Registrations made through the API helper come "from" addresses of their own.
      TRUST_PROXY: '127.0.0.1',
    },
  },
});
