import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../../db/database';
import type { StaffUserTable } from '../../../db/schema';

/**
 * Usernames are compared trimmed and in lower case: `admin`, `ADMIN` and ` admin ` are one
 * person at sign-in, in the failure counters and for uniqueness. New and renamed usernames are
 * stored in this form; rows written before keep theirs and are still found.
 */
export function normalizeUsername(username: string): string {
  return username.trim().toLowerCase();
}

/** Every query on staff users: sign-in, the session's principal, the console's staff page. */
export function createStaffRepository(db: Db) {
  const k = db.kysely;
  return {
    /** The staff member behind a session, with what a route's access check needs. */
    findForSession(officeId: number, id: number) {
      return k
        .selectFrom('staff_user')
        .select(['id', 'username', 'name', 'role', 'units', 'disabled', 'must_change_password', 'password_set_at', 'created_at'])
        .where('id', '=', id)
        .where('office_id', '=', officeId)
        .executeTakeFirst();
    },
    findByUsername(officeId: number, username: string) {
      return k
        .selectFrom('staff_user')
        .select(['id', 'name', 'role', 'password_hash', 'disabled', 'must_change_password', 'password_set_at', 'created_at'])
        .where('office_id', '=', officeId)
        .where(sql<string>`lower(username)`, '=', normalizeUsername(username))
        .executeTakeFirst();
    },
    passwordHash(officeId: number, id: number) {
      return k
        .selectFrom('staff_user')
        .select(['password_hash', 'password_history'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Whether another staff user of the office already has this username, in any case. */
    async usernameTaken(officeId: number, username: string, exceptId?: number): Promise<boolean> {
      let q = k
        .selectFrom('staff_user')
        .select('id')
        .where('office_id', '=', officeId)
        .where(sql<string>`lower(username)`, '=', normalizeUsername(username));
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },
    profile(officeId: number, id: number) {
      return k
        .selectFrom('staff_user')
        .innerJoin('office', 'office.id', 'staff_user.office_id')
        .select([
          'staff_user.id',
          'staff_user.username',
          'staff_user.name',
          'staff_user.role',
          'staff_user.units',
          'office.name as officeName',
          'office.settings as officeSettings',
        ])
        .where('staff_user.office_id', '=', officeId)
        .where('staff_user.id', '=', id)
        .executeTakeFirst();
    },
    list(officeId: number) {
      return k
        .selectFrom('staff_user')
        .leftJoin('second_factor as sf', (j) => j.onRef('sf.subject_id', '=', 'staff_user.id').on('sf.kind', '=', 'staff'))
        .select([
          'staff_user.id',
          'staff_user.username',
          'staff_user.name',
          'staff_user.role',
          'staff_user.units',
          'staff_user.disabled',
          'staff_user.created_at',
          'sf.enabled_at as totp_enabled_at',
        ])
        .where('staff_user.office_id', '=', officeId)
        .orderBy('staff_user.id')
        .execute();
    },
    find(officeId: number, id: number) {
      return k
        .selectFrom('staff_user')
        .select(['id', 'username', 'role', 'disabled', 'password_hash', 'password_history'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** Another enabled admin of the office than `exceptId`, if there is one. */
    otherEnabledAdmin(officeId: number, exceptId: number) {
      return k
        .selectFrom('staff_user')
        .select('id')
        .where('office_id', '=', officeId)
        .where('role', '=', 'admin')
        .where('disabled', '=', 0)
        .where('id', '!=', exceptId)
        .executeTakeFirst();
    },
    async insert(row: Insertable<StaffUserTable>): Promise<number> {
      const r = await k.insertInto('staff_user').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async update(officeId: number, id: number, fields: Updateable<StaffUserTable>): Promise<void> {
      await k.updateTable('staff_user').set(fields).where('office_id', '=', officeId).where('id', '=', id).execute();
    },
  };
}
export type StaffRepository = ReturnType<typeof createStaffRepository>;
