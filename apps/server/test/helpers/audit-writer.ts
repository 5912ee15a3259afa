// A process of its own that appends audit records (test/audit-chain-concurrency.test.ts): what
// several servers, on one machine or two, do to the same chains at once.
// Arguments: the database config as JSON, the crypto suite, the office id, how many, a tag, a
// barrier folder and how many writers meet there: each writer leaves a file in it once it is up
// and starts only when every writer has, so all start together however long each took to come up
// (a start time fixed in advance was passed on a loaded CI machine before the last one was up).
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type DatabaseConfig } from '../../src/db/database';
import { createAuditMac } from '../../src/lib/audit-mac';
import type { CryptoSuite } from '../../src/lib/crypto-suite';
import { appendToChain } from '../../src/modules/platform/audit/chain';
import { platformChain } from '../../src/modules/platform/audit/platform-chain';
import { createAuditRepository } from '../../src/modules/platform/audit/repository';

const [config, suite, office, count, tag, barrier, writers] = process.argv.slice(2);
const db = openDatabase(JSON.parse(config!) as DatabaseConfig, { poolSize: 2 });
const mac = createAuditMac({ suite: suite as CryptoSuite, current: Buffer.alloc(32, 7), previous: [] });
const repo = createAuditRepository(db, mac);
const at = () => new Date().toISOString();
await db.kysely.selectFrom('office').select('id').limit(1).execute();
writeFileSync(join(barrier!, tag!), '');
const deadline = Date.now() + 90_000;
while (readdirSync(barrier!).length < Number(writers)) {
  if (Date.now() > deadline) throw new Error('the other writers never came up');
  await new Promise((resolve) => setTimeout(resolve, 5));
}
for (let i = 0; i < Number(count); i++) {
  await repo.insert({
    office_id: Number(office),
    staff_id: 1,
    staff_name: tag!,
    action: '登录',
    target: 'staff:1',
    detail: `${tag} ${i}`,
    ip: '127.0.0.1',
    at: at(),
  });
  if (i % 5 === 0)
    await appendToChain(db.kysely, mac, platformChain(), [
      { operator_id: 1, operator_name: tag!, action: '登录', target: 'operator:1', detail: `${tag} ${i}`, ip: '127.0.0.1', at: at() },
    ]);
}
await db.destroy();
