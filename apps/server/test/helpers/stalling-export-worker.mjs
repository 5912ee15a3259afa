// An export worker thread for the limit's test (test/export-limits.test.ts), speaking the protocol
// of lib/worker-stream.ts: it writes its first bytes, then either ends (workerData.stall false)
// or never writes again (true): a task stuck after its download began.
import { parentPort, workerData } from 'node:worker_threads';

const nap = new Int32Array(new SharedArrayBuffer(4));
parentPort.postMessage({ chunk: new TextEncoder().encode(`first bytes of ${workerData.name}`) });
if (workerData.stall) for (;;) Atomics.wait(nap, 0, 0, 5);
parentPort.postMessage({ end: true });
parentPort.close();
