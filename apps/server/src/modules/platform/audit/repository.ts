import { AUDIT_PURGE_ACTION } from '@zhikaoyun/shared';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { AuditLogTable, DB } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import { appendToChain, resealRows, type ChainRecord, type ChainTable } from './chain';
import { chainState } from './chain-check';

/** A row to write: the table's columns but the generated id and what the chain gives it. */
export type AuditRecord = Omit<Insertable<AuditLogTable>, 'seq' | 'mac' | 'mac_key'>;

/**
 * An office's chain over `audit_log` (chain.ts): the office's records by their place. The MAC
 * covers the chain's name, the place and every column but the id.
 */
export function officeChain(officeId: number): ChainTable<AuditRecord> {
  const chain = `office:${officeId}`;
  const contentOf = (r: AuditRecord, seq: number) => [
    chain,
    seq,
    r.office_id,
    r.staff_id,
    r.staff_name,
    r.action,
    r.target,
    r.detail,
    r.ip,
    r.at,
  ];
  const columns = ['id', 'office_id', 'staff_id', 'staff_name', 'action', 'target', 'detail', 'ip', 'at', 'seq', 'mac', 'mac_key'] as const;
  type Row = Pick<AuditLogTable, Exclude<(typeof columns)[number], 'id'>> & { id: number };
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
  const table: ChainTable<AuditRecord> = {
    chain,
    label: `audit_log office ${officeId}`,
    purgeAction: AUDIT_PURGE_ACTION,
    contentOf,
    async range(k, after, through, limit) {
      const rows = await k
        .selectFrom('audit_log')
        .select(columns)
        .where('office_id', '=', officeId)
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
        .selectFrom('audit_log')
        .select(columns)
        .where('office_id', '=', officeId)
        .where((eb) => eb.or([eb('seq', 'is', null), eb('mac', 'is', null), eb('mac_key', 'is', null), eb('seq', '>', head)]))
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row ? record(row) : null;
    },
    async firstAtOrAfter(k, after, cutoff) {
      const row = await k
        .selectFrom('audit_log')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('office_id', '=', officeId)
        .where('seq', '>', after)
        .where('at', '>=', cutoff)
        .executeTakeFirst();
      return row?.seq ?? null;
    },
    async insert(trx, rows) {
      // Bounded statements: SQLite allows at most 32,766 bound values in one.
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('audit_log')
          .values(rows.slice(i, i + 500))
          .execute();
    },
    async firstNotUnder(k, after, keyId) {
      const row = await k
        .selectFrom('audit_log')
        .select((eb) => eb.fn.min('seq').as('seq'))
        .where('office_id', '=', officeId)
        .where('seq', '>', after)
        .where((eb) => eb.or([eb('mac_key', 'is', null), eb('mac_key', '!=', keyId)]))
        .executeTakeFirst();
      return row?.seq ?? null;
    },
    reseal: (trx, rows, macKey) => resealRows(trx, 'audit_log', rows, macKey),
    async deleteThrough(trx, seq) {
      const r = await trx.deleteFrom('audit_log').where('office_id', '=', officeId).where('seq', '<=', seq).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    appendNote: (trx, mac, { actor, ...note }) =>
      appendToChain(trx, mac, table, [{ office_id: officeId, staff_id: 0, staff_name: actor, ...note }]),
  };
  return table;
}

export function createAuditRepository(db: Db, mac: AuditMac) {
  return {
    /** `executor`: the transaction of the change being recorded, so both are kept or neither. */
    async insert(row: AuditRecord, executor: Kysely<DB> = db.kysely) {
      await appendToChain(executor, mac, officeChain(row.office_id), [row]);
    },
    /** Several records of one office, in one transaction and one stretch of its chain. */
    async insertMany(rows: readonly AuditRecord[], executor: Kysely<DB> = db.kysely) {
      const first = rows[0];
      if (!first) return;
      if (rows.some((r) => r.office_id !== first.office_id)) throw new Error('insertMany: records of one office at a time');
      await appendToChain(executor, mac, officeChain(first.office_id), rows);
    },
    chainState(officeId: number) {
      return chainState(db.kysely, officeChain(officeId), mac);
    },
    /**
     * A page of the office's log, newest first. The total is the office's tally (kept by a
     * trigger); the page's ids come from the (office_id, id) index alone, walked from whichever
     * end is nearer, so no page sorts or counts the log.
     */
    async page(officeId: number, offset: number, limit: number) {
      const k = db.kysely;
      const tally = await k.selectFrom('audit_tally').select('n').where('office_id', '=', officeId).executeTakeFirst();
      const total = Number(tally?.n ?? 0);
      if (offset >= total) return { rows: [], total };
      const fromEnd = offset > total / 2;
      const ids = (
        await k
          .selectFrom('audit_log')
          .select('id')
          .where('office_id', '=', officeId)
          .orderBy('id', fromEnd ? 'asc' : 'desc')
          .offset(fromEnd ? Math.max(0, total - offset - limit) : offset)
          .limit(fromEnd ? Math.min(limit, total - offset) : limit)
          .execute()
      ).map((r) => r.id);
      if (ids.length === 0) return { rows: [], total };
      const rows = await k
        .selectFrom('audit_log')
        .select(['id', 'seq', 'staff_name', 'action', 'target', 'detail', 'ip', 'at'])
        .where('id', 'in', ids)
        .orderBy('id', 'desc')
        .execute();
      return { rows, total };
    },

    /** The office's log from the newest entry down, `size` rows at a time (keyset on the (office_id, id) index), for the export. */
    async *batches(officeId: number, size: number) {
      let before: number | null = null;
      for (;;) {
        let q = db.kysely
          .selectFrom('audit_log')
          .select(['id', 'seq', 'staff_name', 'action', 'target', 'detail', 'ip', 'at'])
          .where('office_id', '=', officeId);
        if (before !== null) q = q.where('id', '<', before);
        const rows = await q.orderBy('id', 'desc').limit(size).execute();
        if (rows.length === 0) return;
        yield rows;
        before = rows[rows.length - 1]!.id;
      }
    },

    /** What the entries of a page touched, by name: one query per kind of thing, for its ids. */
    async targetNames(
      officeId: number,
      ids: Readonly<Record<'exam' | 'position' | 'notice' | 'staff' | 'application' | 'feeWaiver', number[]>>,
    ) {
      const k = db.kysely;
      const none = Promise.resolve([]);
      const [exams, positions, notices, staff, applications, waivers] = await Promise.all([
        ids.exam.length
          ? k.selectFrom('exam').select(['id', 'name']).where('office_id', '=', officeId).where('id', 'in', ids.exam).execute()
          : none,
        ids.position.length
          ? k
              .selectFrom('position')
              .select(['id', 'code', 'name'])
              .where(sql<number>`+office_id`, '=', officeId)
              .where('id', 'in', ids.position)
              .execute()
          : none,
        ids.notice.length
          ? k.selectFrom('notice').select(['id', 'title']).where('office_id', '=', officeId).where('id', 'in', ids.notice).execute()
          : none,
        ids.staff.length
          ? k
              .selectFrom('staff_user')
              .select(['id', 'username', 'name'])
              .where('office_id', '=', officeId)
              .where('id', 'in', ids.staff)
              .execute()
          : none,
        ids.application.length
          ? k
              .selectFrom('application as a')
              .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
              .select(['a.id', 'c.name'])
              // By primary key, the office checked on each row found: the unary plus keeps SQLite's
              // planner from walking the office's whole index instead (about 100 ms at 1M).
              .where(sql<number>`+a.office_id`, '=', officeId)
              .where('a.id', 'in', ids.application)
              .execute()
          : none,
        ids.feeWaiver.length
          ? k
              .selectFrom('fee_waiver as w')
              .innerJoin('application as a', 'a.id', 'w.application_id')
              .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
              .select(['w.id', 'c.name'])
              .where(sql<number>`+w.office_id`, '=', officeId)
              .where('w.id', 'in', ids.feeWaiver)
              .execute()
          : none,
      ]);
      return { exams, positions, notices, staff, applications, waivers };
    },
  };
}
export type AuditRepository = ReturnType<typeof createAuditRepository>;
