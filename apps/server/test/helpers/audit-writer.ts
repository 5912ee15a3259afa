// A process of its own that appends audit records (test/audit-chain-concurrency.test.ts): what
// several servers, on one machine or two, do to the same chains at once.
// Arguments: the database config as JSON, the crypto suite, the office id, how many, a tag, and
// when to start (epoch ms: every writer starts at once, however long its process took to come up).
import { openDatabase, type DatabaseConfig } from '../../src/db/database';
import { createAuditMac } from '../../src/lib/audit-mac';
import type { CryptoSuite } from '../../src/lib/crypto-suite';
import { appendToChain } from '../../src/modules/platform/audit/chain';
import { platformChain } from '../../src/modules/platform/audit/platform-chain';
import { createAuditRepository } from '../../src/modules/platform/audit/repository';

const [config, suite, office, count, tag, startAt] = process.argv.slice(2);
const db = openDatabase(JSON.parse(config!) as DatabaseConfig, { poolSize: 2 });
const mac = createAuditMac({ suite: suite as CryptoSuite, current: Buffer.alloc(32, 7), previous: [] });
const repo = createAuditRepository(db, mac);
const at = () => new Date().toISOString();
await db.kysely.selectFrom('office').select('id').limit(1).execute();
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
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
