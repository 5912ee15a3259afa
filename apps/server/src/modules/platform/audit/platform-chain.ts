import { AUDIT_PURGE_ACTION } from '@zhikaoyun/shared';
import type { Insertable } from 'kysely';
import type { PlatformAuditTable } from '../../../db/schema';
import { appendToChain, resealRows, type ChainRecord, type ChainTable } from './chain';

/** A row of the platform's log to write: its columns but the id and what the chain gives it. */
export type PlatformAuditRecord = Omit<Insertable<PlatformAuditTable>, 'seq' | 'mac' | 'mac_key'>;

const CHAIN = 'platform';

/** The platform's own chain over `platform_audit` (chain.ts), apart from every office's. */
export function platformChain(): ChainTable<PlatformAuditRecord> {
  const contentOf = (r: PlatformAuditRecord, seq: number) => [
    CHAIN,
    seq,
    r.operator_id,
    r.operator_name,
    r.action,
    r.target,
    r.detail,
    r.ip,
    r.at,
  ];
  const columns = ['id', 'operator_id', 'operator_name', 'action', 'target', 'detail', 'ip', 'at', 'seq', 'mac', 'mac_key'] as const;
  type Row = Pick<PlatformAuditTable, Exclude<(typeof columns)[number], 'id'>> & { id: number };
  const record = (r: Row): ChainRecord => ({
    id: r.id,
    seq: r.seq,
    mac: r.mac,
    macKey: r.mac_key,
    at: r.at,
    action: r.action,
    detail: r.detail,
    content: contentOf(r, r.seq ?? 0),
  });
  const table: ChainTable<PlatformAuditRecord> = {
    chain: CHAIN,
    label: 'platform_audit',
    purgeAction: AUDIT_PURGE_ACTION,
    contentOf,
    async range(k, after, through, limit) {
      const rows = await k
        .selectFrom('platform_audit')
        .select(columns)
        .where('seq', '>', after)
        .where('seq', '<=', through)
        .orderBy('seq')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(record);
    },
    async stray(k, head) {
      const row = await k
        .selectFrom('platform_audit')
        .select(columns)
        .where((eb) => eb.or([eb('seq', 'is', null), eb('mac', 'is', null), eb('mac_key', 'is', null), eb('seq', '>', head)]))
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row ? record(row) : null;
    },
    async firstAtOrAfter(k, after, cutoff) {
      const row = await k
        .selectFrom('platform_audit')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('seq', '>', after)
        .where('at', '>=', cutoff)
        .executeTakeFirst();
      return row?.seq ?? null;
    },
    async insert(trx, rows) {
      await trx.insertInto('platform_audit').values(rows).execute();
    },
    async firstNotUnder(k, after, keyId) {
      const row = await k
        .selectFrom('platform_audit')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('seq', '>', after)
        .where((eb) => eb.or([eb('mac_key', 'is', null), eb('mac_key', '!=', keyId)]))
        .executeTakeFirst();
      return row?.seq ?? null;
    },
    reseal: (trx, rows, macKey) => resealRows(trx, 'platform_audit', rows, macKey),
    async deleteThrough(trx, seq) {
      const r = await trx.deleteFrom('platform_audit').where('seq', '<=', seq).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    appendNote: (trx, mac, { actor, ...note }) => appendToChain(trx, mac, table, [{ operator_id: 0, operator_name: actor, ...note }]),
  };
  return table;
}
