import type { Db } from '../../../db/database';

/** 安全管理's reads: the office's staff with whether their second factor is on, and their sessions still open. */
export function createSecurityRepository(db: Db) {
  const k = db.kysely;
  return {
    staff(officeId: number) {
      return k
        .selectFrom('staff_user')
        .leftJoin('second_factor as sf', (j) => j.onRef('sf.subject_id', '=', 'staff_user.id').on('sf.kind', '=', 'staff'))
        .select([
          'staff_user.id',
          'staff_user.username',
          'staff_user.name',
          'staff_user.role',
          'staff_user.disabled',
          'sf.enabled_at as totp_enabled_at',
        ])
        .where('staff_user.office_id', '=', officeId)
        .orderBy('staff_user.id')
        .execute();
    },
    /** Per staff member: how many sessions are neither ended nor past their limits (`now`, idle since `idleSince`), and the last use. */
    openSessions(officeId: number, now: string, idleSince: string) {
      return k
        .selectFrom('session')
        .select((eb) => ['subject_id', eb.fn.countAll<number | string>().as('n'), eb.fn.max('last_seen_at').as('last_seen_at')])
        .where('kind', '=', 'staff')
        .where('office_id', '=', officeId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .where('last_seen_at', '>', idleSince)
        .groupBy('subject_id')
        .execute();
    },
  };
}
export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
