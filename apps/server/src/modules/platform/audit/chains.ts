import type { Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import { nowIso } from '../../../lib/clock';
import { sealIfLegacy, type ChainStore } from './chain';
import { recordFullCheck } from './chain-check';
import { readHead, walkChain } from './chain-verify';
import { platformChain } from './platform-chain';
import { officeChain } from './repository';

/** The table of a chain by its name (`office:<id>`, `platform`). */
export function chainTableOf(name: string): ChainStore {
  if (name === 'platform') return platformChain();
  const m = /^office:(\d+)$/.exec(name);
  if (!m) throw new Error(`unknown audit chain ${name}`);
  return officeChain(Number(m[1]));
}

/**
 * Every chain of the database: those with a head, and any office or platform rows without one
 * (rows written outside every chain are still checked, and reported).
 */
export async function allChains(k: Kysely<DB>): Promise<ChainStore[]> {
  const [heads, offices, platform] = await Promise.all([
    k.selectFrom('audit_chain').select('chain').execute(),
    k.selectFrom('audit_log').select('office_id').distinct().execute(),
    k.selectFrom('platform_audit').select('id').limit(1).execute(),
  ]);
  const names = new Set(heads.map((h) => h.chain));
  for (const o of offices) names.add(`office:${o.office_id}`);
  if (platform.length > 0) names.add('platform');
  const order = (n: string) => (n === 'platform' ? -1 : Number(n.slice('office:'.length)));
  return [...names].sort((a, b) => order(a) - order(b)).map(chainTableOf);
}

/**
 * Seals the records written before the chains existed (migration 0030), at the first start after
 * it, so that no request pays for it, and verifies them once, so that the console goes on from the
 * head; how many per chain.
 */
export async function sealLegacyChains(db: Db, mac: AuditMac): Promise<{ chain: string; sealed: number }[]> {
  const waiting = await db.kysely.selectFrom('audit_chain').select('chain').where('mac', 'is', null).execute();
  const sealed: { chain: string; sealed: number }[] = [];
  for (const { chain } of waiting) {
    const startedAt = nowIso();
    const table = chainTableOf(chain);
    const n = await sealIfLegacy(db.kysely, mac, table);
    if (n === 0) continue;
    sealed.push({ chain, sealed: n });
    // Sealed just now, every record in order: the console starts from the head, not from record 1.
    const head = (await readHead(db.kysely, chain))!;
    await recordFullCheck(db.kysely, table, mac, await walkChain(db.kysely, table, mac, head), startedAt);
  }
  return sealed;
}
