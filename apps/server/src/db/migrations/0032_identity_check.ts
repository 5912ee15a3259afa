import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * Identity checks (issue 33, decision 034): one row per check of a candidate.
 * - `kind` 'real_name' (name + ID number at registration; one row per account, rewritten by a
 *   retry or a corrected name) or 'face' (one row per face check started, with the exam it was
 *   started for).
 * - `status` 'pending' | 'passed' | 'failed'; `attempts` and `next_at` pace the background retries
 *   of a pending real-name check; `reason` is the provider's code when it failed or erred.
 * - `provider` and `provider_ref` (Tencent BizToken, Alibaba CertifyId, the sandbox's own) find the
 *   check at the provider again; `token_hash` is the SHA-256 of the token of the return link.
 * No face image, video or similarity score is kept: only the result, its time and the reference.
 */
export function identityCheck(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('identity_check')
        .addColumn('id', id, pk)
        .addColumn('office_id', 'integer', (c) => c.notNull())
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidate.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('exam_id', 'integer')
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_ref', 'text')
        .addColumn('token_hash', 'text')
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('checked_at', 'text')
        .execute();
      await db.schema.createIndex('identity_check_candidate_idx').on('identity_check').columns(['candidate_id', 'kind']).execute();
      await db.schema.createIndex('identity_check_token_idx').on('identity_check').column('token_hash').unique().execute();
      await db.schema.createIndex('identity_check_due_idx').on('identity_check').columns(['status', 'next_at']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('identity_check').execute();
    },
  };
}
