import { rmSync } from 'node:fs';

/** The run's database goes with it. */
export default function globalTeardown(): void {
  const dir = process.env.E2E_DB_DIR;
  if (dir && dir.includes('zhikaoyun-e2e-')) rmSync(dir, { recursive: true, force: true });
}
