import { defineConfig } from 'vitest/config';

// Benches that need the server's test helpers (a real app on a fresh database of each kind):
// `npm run bench:scores`. Never part of `npm test`: their figures depend on the machine.
export default defineConfig({
  test: {
    name: 'server-bench',
    root: import.meta.dirname,
    include: ['bench/**/*.bench.ts'],
    environment: 'node',
    testTimeout: 600_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
