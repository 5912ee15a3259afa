import type { Kysely } from 'kysely';

type AnyDb = Kysely<unknown>;

/**
 * The platform operator's sign-in captchas. An office's captcha row belongs to its office
 * (`captcha.office_id` references `office`), and a production deployment starts with no office at
 * all: the operator's captchas are kept apart, in a table of their own, checked by the same service.
 */
export function platformCaptcha() {
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('platform_captcha')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('answer_hash', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('platform_captcha_expires_idx').on('platform_captcha').column('expires_at').execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('platform_captcha').execute();
    },
  };
}
