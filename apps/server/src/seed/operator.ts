import { PLATFORM_OPERATOR_USERNAME } from '@zhikaoyun/shared';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { hashPassword } from '../lib/password';

/**
 * The platform operator (`platform`), made on the first start of every deployment, demo or not.
 * Its password is PLATFORM_ADMIN_PASSWORD or, when that is unset, a one-time password made here
 * and shown once. Either way it must be changed at the first sign-in: a password that sat in an
 * environment file or a log is known to more people than the operator.
 */
export async function seedPlatformOperator(
  db: Db,
  opts: { password: string | undefined; now?: Date },
): Promise<{ generatedPassword?: string }> {
  const existing = await db.kysely.selectFrom('platform_operator').select('id').limit(1).executeTakeFirst();
  if (existing) return {};
  const generated = opts.password ? undefined : randomBytes(12).toString('base64url');
  const stamp = (opts.now ?? new Date()).toISOString();
  const inserted = await db.kysely
    .insertInto('platform_operator')
    .values({
      username: PLATFORM_OPERATOR_USERNAME,
      password_hash: await hashPassword(opts.password ?? generated!),
      name: '平台管理员',
      must_change_password: 1,
      password_set_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    // Two processes starting on one empty database: the second finds the first's row.
    .onConflict((oc) => oc.column('username').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted && generated ? { generatedPassword: generated } : {};
}
