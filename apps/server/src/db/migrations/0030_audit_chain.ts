import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * The tamper-evident audit trail (issue 32 item 4, decision 032). Each record of an office's
 * `audit_log` and of the platform's `platform_audit` gets its place in its chain (`seq`, from 1 per
 * office and for the platform) and a MAC over the previous record's MAC and its own content
 * (`mac`, under the data key `mac_key` names). `audit_chain` holds each chain's head (the row an
 * append updates first, which serializes appends), the anchor of what an audited purge removed,
 * and a key rotation's progress; `audit_check` the console's remembered verification.
 *
 * Rows already written get their place here, in id order; their MACs need the data key, which a
 * migration does not have: the chain's head is left without a MAC (`mac` null) and the first
 * start after this migration seals them (modules/platform/audit/chain.ts `sealLegacy`).
 */
export function auditChain() {
  return {
    async up(db: AnyDb): Promise<void> {
      for (const table of ['audit_log', 'platform_audit']) {
        await db.schema.alterTable(table).addColumn('seq', 'integer').execute();
        await db.schema.alterTable(table).addColumn('mac', 'text').execute();
        await db.schema.alterTable(table).addColumn('mac_key', 'text').execute();
      }
      await sql`UPDATE audit_log SET seq = r.n FROM (SELECT id, row_number() OVER (PARTITION BY office_id ORDER BY id) AS n FROM audit_log) AS r WHERE audit_log.id = r.id`.execute(
        db,
      );
      await sql`UPDATE platform_audit SET seq = r.n FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM platform_audit) AS r WHERE platform_audit.id = r.id`.execute(
        db,
      );
      await db.schema.createIndex('audit_log_chain_idx').on('audit_log').columns(['office_id', 'seq']).unique().execute();
      await db.schema.createIndex('platform_audit_chain_idx').on('platform_audit').column('seq').unique().execute();

      await db.schema
        .createTable('audit_chain')
        .addColumn('chain', 'text', (c) => c.primaryKey())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('mac', 'text')
        .addColumn('floor_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('floor_mac', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('rekey_seq', 'integer')
        .addColumn('rekey_mac', 'text')
        .addColumn('legacy_seq', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sealed_at', 'text')
        .execute();
      await sql`INSERT INTO audit_chain (chain, seq, legacy_seq) SELECT 'office:' || office_id, max(seq), max(seq) FROM audit_log GROUP BY office_id`.execute(
        db,
      );
      await sql`INSERT INTO audit_chain (chain, seq, legacy_seq) SELECT 'platform', max(seq), max(seq) FROM platform_audit HAVING count(*) > 0`.execute(
        db,
      );
      await db.schema
        .createTable('audit_check')
        .addColumn('chain', 'text', (c) => c.primaryKey())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('audit_check').execute();
      await db.schema.dropTable('audit_chain').execute();
      await db.schema.dropIndex('platform_audit_chain_idx').execute();
      await db.schema.dropIndex('audit_log_chain_idx').execute();
      for (const table of ['audit_log', 'platform_audit']) {
        for (const column of ['mac_key', 'mac', 'seq']) await db.schema.alterTable(table).dropColumn(column).execute();
      }
    },
  };
}
