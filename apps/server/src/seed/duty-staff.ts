import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { hashPassword } from '../lib/password';

/**
 * The demo office's security and audit staff (三权分立, decision 031), so that a newcomer sees
 * each role's console. Their passwords are documented in the README: the demo is never seeded in
 * production. Each password keeps the staff password rule (12+ characters, 3 kinds, not the username).
 */
export const DEMO_DUTY_STAFF = [
  { username: 'security', password: 'Anquan-Demo-2026', name: '安全员', role: 'security' },
  { username: 'auditor', password: 'Shenji-Demo-2026', name: '审计员', role: 'auditor' },
] as const;

export async function seedDutyStaff(trx: Kysely<DB>, officeId: number, stamp: string): Promise<void> {
  for (const s of DEMO_DUTY_STAFF)
    await trx
      .insertInto('staff_user')
      .values({
        office_id: officeId,
        username: s.username,
        password_hash: await hashPassword(s.password),
        name: s.name,
        role: s.role,
        disabled: 0,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
}
