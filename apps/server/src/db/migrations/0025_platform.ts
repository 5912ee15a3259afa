import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * The platform that hosts many offices (issue 31):
 * - `office.disabled`: a paused office (暂停服务) keeps every row; its site, API and staff sign-in
 *   refuse until it is enabled again.
 * - `office_host`: the host names an office is served on; a host belongs to one office.
 * - `staff_user.must_change_password`: set on a one-time password (an office's first admin); every
 *   call of that session but changePassword is refused until it is changed.
 * - `platform_operator`, `platform_session`, `platform_audit`: the operator who creates offices
 *   signs in apart from any office (its own sessions, so no office token opens a platform call and
 *   the reverse), and every platform action is logged apart from the offices' own audit logs.
 */
export function platform(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .alterTable('office')
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('office').addColumn('disabled_at', 'text').execute();
      await db.schema
        .alterTable('staff_user')
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('office_host')
        .addColumn('host', 'text', (c) => c.primaryKey())
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('office_host_office_idx').on('office_host').column('office_id').execute();
      await db.schema
        .createTable('platform_operator')
        .addColumn('id', id, pk)
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('platform_session')
        .addColumn('id', id, pk)
        // Only the SHA-256 of the token is stored, as for office sessions.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('operator_id', 'integer', (c) => c.notNull().references('platform_operator.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('platform_session_operator_idx').on('platform_session').column('operator_id').execute();
      await db.schema
        .createTable('platform_audit')
        .addColumn('id', id, pk)
        .addColumn('operator_id', 'integer', (c) => c.notNull())
        .addColumn('operator_name', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('platform_audit_at_idx').on('platform_audit').column('at').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('platform_audit').execute();
      await db.schema.dropTable('platform_session').execute();
      await db.schema.dropTable('platform_operator').execute();
      await db.schema.dropTable('office_host').execute();
      await db.schema.alterTable('staff_user').dropColumn('must_change_password').execute();
      await db.schema.alterTable('office').dropColumn('disabled_at').execute();
      await db.schema.alterTable('office').dropColumn('disabled').execute();
    },
  };
}
