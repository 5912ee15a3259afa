// Bench only (loaded with --import into the bench's server, never into the product): on SIGUSR2
// the process collects its garbage and writes process.memoryUsage() to ZK_BENCH_MEMFILE, so that
// a leak can be told from memory the collector simply had not reclaimed yet.
import { writeFileSync } from 'node:fs';

process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
  writeFileSync(process.env.ZK_BENCH_MEMFILE, JSON.stringify(process.memoryUsage()));
});
