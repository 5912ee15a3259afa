import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/** Candidate accounts, their photos and the sessions of candidates and staff. */
export function accounts(dialect: Dialect) {
  const { id, blob } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('candidate')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        // The ID number is kept only encrypted; its keyed hash finds it and keeps it unique.
        .addColumn('idno_index', 'text', (c) => c.notNull())
        .addColumn('idno_enc', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('birthday', 'text', (c) => c.notNull())
        .addColumn('sex', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('answer_enc', 'text', (c) => c.notNull())
        .addColumn('photo_id', 'integer')
        .addColumn('consent_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('candidate_office_idno_uq', ['office_id', 'idno_index'])
        .execute();

      await db.schema
        .createTable('photo')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('candidate_id', 'integer', (c) => c.notNull().references('candidate.id').onDelete('cascade'))
        .addColumn('mime', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('data', blob, (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('photo_candidate_idx').on('photo').column('candidate_id').execute();

      await db.schema
        .createTable('session')
        .addColumn('id', id, (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        // Only the SHA-256 of the token is stored: a database dump yields no usable session.
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'integer', (c) => c.notNull())
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute();
      await db.schema.createIndex('session_subject_idx').on('session').columns(['kind', 'subject_id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['session', 'photo', 'candidate']) await db.schema.dropTable(t).execute();
    },
  };
}
