import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/** Auto-increment primary key in the dialect's own words. */
function idType(dialect: Dialect) {
  return dialect === 'postgres' ? sql`serial` : sql`integer`;
}

export function init(dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('office')
        .addColumn('id', idType(dialect), (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('code', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('menu', 'text', (c) => c.notNull())
        .addColumn('agreement_title', 'text', (c) => c.notNull())
        .addColumn('agreement_content', 'text', (c) => c.notNull())
        .addColumn('agreement_updated_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('exam')
        .addColumn('id', idType(dialect), (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('registration_start', 'text', (c) => c.notNull())
        .addColumn('registration_end', 'text', (c) => c.notNull())
        .addColumn('review_start', 'text', (c) => c.notNull())
        .addColumn('review_end', 'text', (c) => c.notNull())
        .addColumn('confirmation_start', 'text', (c) => c.notNull())
        .addColumn('confirmation_end', 'text', (c) => c.notNull())
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exam_office_idx').on('exam').column('office_id').execute();

      await db.schema
        .createTable('exam_document')
        .addColumn('id', idType(dialect), (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer', (c) => c.notNull().references('exam.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exam_document_exam_idx').on('exam_document').columns(['office_id', 'exam_id', 'type']).execute();

      await db.schema
        .createTable('captcha')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('answer_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('captcha_expires_idx').on('captcha').column('expires_at').execute();

      await db.schema
        .createTable('staff_user')
        .addColumn('id', idType(dialect), (c) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()))
        .addColumn('office_id', 'integer', (c) => c.notNull().references('office.id').onDelete('cascade'))
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('staff_user_office_username_uq', ['office_id', 'username'])
        .execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const t of ['staff_user', 'captcha', 'exam_document', 'exam', 'office']) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
