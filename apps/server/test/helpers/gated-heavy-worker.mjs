// The heavy worker thread for tests that watch it work: the real one (dist/heavy-worker.js)
// behind a gate the test holds through files in the folder ZK_TEST_WORKER_GATE names. Before each
// task the worker writes `started-<task>`; while `hold` exists it waits (its own thread, not the
// server's event loop); when `crash` exists it dies with an uncaught error instead of answering.
// The `started-<task>` file holds the worker's heap limit in bytes (sheets get a smaller one).
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { parentPort, threadId } from 'node:worker_threads';

const dir = process.env.ZK_TEST_WORKER_GATE ?? '';
const nap = new Int32Array(new SharedArrayBuffer(4));

function gate({ task }) {
  // Written whole, then renamed: a test that sees the file may read it at once. The draft is the
  // thread's own, so two workers taking the same task at once do not rename each other's away.
  const started = path.join(dir, `started-${task}`);
  const draft = `${started}.${threadId}.tmp`;
  writeFileSync(draft, String(getHeapStatistics().heap_size_limit));
  renameSync(draft, started);
  if (existsSync(path.join(dir, 'crash'))) throw new Error('test: the heavy worker crashes');
  while (existsSync(path.join(dir, 'hold'))) Atomics.wait(nap, 0, 0, 5);
}

// The real worker's task listener, with the gate in front of it.
const on = parentPort.on.bind(parentPort);
parentPort.on = (event, listener) =>
  on(
    event,
    event === 'message'
      ? (message) => {
          gate(message);
          listener(message);
        }
      : listener,
  );
await import('../../dist/heavy-worker.js');
