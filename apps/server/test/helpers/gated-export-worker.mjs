// The export worker thread for tests that watch it work: the real one (dist/export-worker.js)
// behind a gate the test holds through files in the folder ZK_TEST_EXPORT_GATE names. On start it
// writes `started-<kind>` with the names of what it was given (the test sees that no rows
// crossed); while `hold` exists it waits (its own thread, not the server's event loop); when
// `crash` exists it dies with an uncaught error before writing a byte.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { threadId, workerData } from 'node:worker_threads';

const dir = process.env.ZK_TEST_EXPORT_GATE ?? '';
const nap = new Int32Array(new SharedArrayBuffer(4));

// Written whole, then renamed: a test that sees the file may read it at once (it once read it empty).
// The draft is the thread's own: two exports at once shared one name, and the second rename found
// it gone, so that worker died before its first bytes (the download became an error envelope).
const started = path.join(dir, `started-${workerData.kind}`);
const draft = `${started}.${threadId}.tmp`;
writeFileSync(draft, JSON.stringify(Object.keys(workerData).sort()));
renameSync(draft, started);
if (existsSync(path.join(dir, 'crash'))) throw new Error('test: the export worker crashes');
while (existsSync(path.join(dir, 'hold'))) Atomics.wait(nap, 0, 0, 5);
await import('../../dist/export-worker.js');
