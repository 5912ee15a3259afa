import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { hashPassword } from '../apps/server/src/lib/password';

/** Every staff account made here has this password (it meets the staff password rule). */
export const E2E_STAFF_PASSWORD = 'Lantern-Harbor-2026';

/**
 * A staff member of the demo office of the test's own, written straight into the e2e database
 * (or `dbFile`, a server of the spec's own). A new sign-in ends the member's older sessions
 * (decision 030), and the suites run side by side: signed in as one shared `admin`, each would
 * sign the others out. Whoever signs in in a test takes an account from here instead; the seeded
 * `admin` is only looked at. `passwordSetAt`: when the password was set (an expired one, say).
 */
const ROLE_NAME = { admin: '系统管理员', reviewer: '审核员', security: '安全管理员', auditor: '审计管理员' } as const;

export async function staffAccount(
  role: 'admin' | 'reviewer' | 'security' | 'auditor' = 'admin',
  { dbFile = path.join(process.env.E2E_DB_DIR!, 'e2e.db'), passwordSetAt = new Date() }: { dbFile?: string; passwordSetAt?: Date } = {},
) {
  const username = `e2e-${role}-${randomBytes(5).toString('hex')}`;
  const stamp = new Date().toISOString();
  const passwordHash = await hashPassword(E2E_STAFF_PASSWORD);
  const db = new Database(dbFile, { fileMustExist: true, timeout: 10_000 });
  try {
    const office = db.prepare("select id from office where code = 'demo'").get() as { id: number };
    db.prepare(
      `insert into staff_user (office_id, username, password_hash, name, role, units, disabled, password_set_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, '[]', 0, ?, ?, ?)`,
    ).run(office.id, username, passwordHash, ROLE_NAME[role], role, passwordSetAt.toISOString(), stamp, stamp);
  } finally {
    db.close();
  }
  return { username, password: E2E_STAFF_PASSWORD };
}

/** An admin account of the test's own, as the sign-in helpers take it: username, password. */
export async function adminAccount(): Promise<[username: string, password: string]> {
  const { username, password } = await staffAccount('admin');
  return [username, password];
}
