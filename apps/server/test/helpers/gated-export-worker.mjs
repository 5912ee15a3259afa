// The export worker thread for tests that watch it work: the real one (dist/export-worker.js)
// behind a gate the test holds through files in the folder ZK_TEST_EXPORT_GATE names. On start it
// writes `started-<kind>` with the names of what it was given (the test sees that no rows
// crossed); while `hold` exists it waits (its own thread, not the server's event loop); when
// `crash` exists it dies with an uncaught error before writing a byte.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';

const dir = process.env.ZK_TEST_EXPORT_GATE ?? '';
const nap = new Int32Array(new SharedArrayBuffer(4));

// Written whole, then renamed: a test that sees the file may read it at once (it once read it empty).
const started = path.join(dir, `started-${workerData.kind}`);
writeFileSync(`${started}.tmp`, JSON.stringify(Object.keys(workerData).sort()));
renameSync(`${started}.tmp`, started);
if (existsSync(path.join(dir, 'crash'))) throw new Error('test: the export worker crashes');
while (existsSync(path.join(dir, 'hold'))) Atomics.wait(nap, 0, 0, 5);
await import('../../dist/export-worker.js');
