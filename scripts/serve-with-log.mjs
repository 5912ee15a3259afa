// The Playwright web server, with its log lines also appended to the test log folder for the
// scan after the whole suite (scripts/scan-test-logs.mjs). Signals reach the server unchanged.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib.mjs';
import { TEST_LOG_DIR } from './scan-test-logs.mjs';

mkdirSync(TEST_LOG_DIR, { recursive: true });
const log = createWriteStream(path.join(TEST_LOG_DIR, `e2e-server-${process.pid}.log`), { flags: 'a' });
const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/server.js')], { stdio: ['ignore', 'pipe', 'pipe'] });
child.stdout.pipe(log, { end: false });
child.stderr.on('data', (chunk) => {
  log.write(chunk);
  process.stderr.write(chunk);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => log.end(() => process.exit(code ?? (signal ? 1 : 0))));
