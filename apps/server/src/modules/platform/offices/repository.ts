import { sql, type Insertable, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import type { DB, OfficeTable } from '../../../db/schema';
import type { AuditMac } from '../../../lib/audit-mac';
import type { CaptchaRepository } from '../../access/captcha/repository';
import { appendToChain } from '../audit/chain';
import { chainState } from '../audit/chain-check';
import { platformChain, type PlatformAuditRecord } from '../audit/platform-chain';

/**
 * Every query of the platform: its operator, the operator's sessions and captchas, the offices
 * with their host names and counts, an office's first admin, and the platform's audit log. No
 * query here reads a candidate's row beyond counting it.
 */
export function createPlatformRepository(db: Db, mac: AuditMac) {
  const k = db.kysely;

  /** The operator's captchas, in the shape the captcha service takes (there is no office to belong to). */
  const captcha: CaptchaRepository = {
    async insert(row) {
      await k
        .insertInto('platform_captcha')
        .values({ id: row.id, answer_hash: row.answer_hash, expires_at: row.expires_at, created_at: row.created_at })
        .execute();
    },
    find(_officeId, id) {
      return k.selectFrom('platform_captcha').select(['expires_at']).where('id', '=', id).executeTakeFirst();
    },
    take(_officeId, id) {
      return k
        .deleteFrom('platform_captcha')
        .where('id', '=', id)
        .returning(['answer_hash', 'expires_at', 'created_at'])
        .executeTakeFirst();
    },
    async deleteExpired(now) {
      await k.deleteFrom('platform_captcha').where('expires_at', '<', now).execute();
    },
  };

  return {
    captcha,

    operatorByUsername(username: string) {
      return k
        .selectFrom('platform_operator')
        .select(['id', 'name', 'password_hash', 'must_change_password', 'password_set_at', 'created_at'])
        .where(sql<string>`lower(username)`, '=', username)
        .executeTakeFirst();
    },
    operatorById(id: number) {
      return k
        .selectFrom('platform_operator')
        .select(['id', 'username', 'name', 'password_hash', 'password_history', 'password_set_at', 'must_change_password', 'created_at'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async setOperatorPassword(
      id: number,
      columns: { password_hash: string; password_set_at: string; password_history: string; must_change_password: number },
      at: string,
    ) {
      await k
        .updateTable('platform_operator')
        .set({ ...columns, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async insertSession(row: {
      token_hash: string;
      operator_id: number;
      created_at: string;
      last_seen_at: string;
      expires_at: string;
    }): Promise<number> {
      return (await k.insertInto('platform_session').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    sessionByHash(tokenHash: string) {
      return k
        .selectFrom('platform_session')
        .select(['id', 'operator_id', 'last_seen_at', 'expires_at', 'revoked_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async touchSession(id: number, at: string) {
      await k.updateTable('platform_session').set({ last_seen_at: at }).where('id', '=', id).execute();
    },
    async revokeSession(id: number, at: string) {
      await k.updateTable('platform_session').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    },
    /**
     * Every other live session of the operator (used since `seenAfter`, not expired at `at`): a
     * new sign-in ends them (decision 030). How many it ended.
     */
    async revokeOtherSessions(operatorId: number, exceptId: number, at: string, seenAfter: string): Promise<number> {
      const r = await k
        .updateTable('platform_session')
        .set({ revoked_at: at })
        .where('operator_id', '=', operatorId)
        .where('id', '!=', exceptId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', at)
        .where('last_seen_at', '>', seenAfter)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Every session of the operator (a password change ends them all). */
    async revokeAllSessions(operatorId: number, at: string) {
      await k
        .updateTable('platform_session')
        .set({ revoked_at: at })
        .where('operator_id', '=', operatorId)
        .where('revoked_at', 'is', null)
        .execute();
    },

    /** Every office with its host names and how many exams and candidate accounts it has. */
    async offices() {
      const rows = await k
        .selectFrom('office')
        .select((eb) => [
          'office.id',
          'office.code',
          'office.name',
          'office.disabled',
          eb.selectFrom('exam').select(eb.fn.countAll<number | string>().as('n')).whereRef('exam.office_id', '=', 'office.id').as('exams'),
          eb
            .selectFrom('candidate')
            .select(eb.fn.countAll<number | string>().as('n'))
            .whereRef('candidate.office_id', '=', 'office.id')
            .as('candidates'),
        ])
        .orderBy('office.id')
        .execute();
      const hosts = await k.selectFrom('office_host').select(['host', 'office_id']).orderBy('host').execute();
      return rows.map((r) => ({
        id: r.id,
        code: r.code,
        name: r.name,
        disabled: r.disabled === 1,
        exams: Number(r.exams ?? 0),
        candidates: Number(r.candidates ?? 0),
        hosts: hosts.filter((h) => h.office_id === r.id).map((h) => h.host),
      }));
    },
    office(id: number) {
      return k.selectFrom('office').select(['id', 'code', 'name', 'disabled']).where('id', '=', id).executeTakeFirst();
    },
    async hostsOf(officeId: number): Promise<string[]> {
      const rows = await k.selectFrom('office_host').select('host').where('office_id', '=', officeId).orderBy('host').execute();
      return rows.map((r) => r.host);
    },
    /** The office that has this code, other than `exceptId`. */
    codeOwner(code: string, exceptId: number | undefined) {
      let q = k.selectFrom('office').select(['id', 'name']).where('code', '=', code);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return q.executeTakeFirst();
    },
    /** Which of these hosts another office than `exceptId` already has. */
    hostOwners(hosts: readonly string[], exceptId: number | undefined) {
      if (hosts.length === 0) return Promise.resolve([]);
      let q = k
        .selectFrom('office_host')
        .innerJoin('office', 'office.id', 'office_host.office_id')
        .select(['office_host.host', 'office.name'])
        .where('office_host.host', 'in', hosts);
      if (exceptId !== undefined) q = q.where('office_host.office_id', '!=', exceptId);
      return q.execute();
    },
    transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
      return k.transaction().execute(work);
    },
    async insertOffice(trx: Kysely<DB>, row: Insertable<OfficeTable>): Promise<number> {
      return (await trx.insertInto('office').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateOffice(
      trx: Kysely<DB>,
      id: number,
      set: { code: string; name: string; disabled: number; disabled_at: string | null; updated_at: string },
    ) {
      await trx.updateTable('office').set(set).where('id', '=', id).execute();
    },
    async replaceHosts(trx: Kysely<DB>, officeId: number, hosts: readonly string[], at: string) {
      await trx.deleteFrom('office_host').where('office_id', '=', officeId).execute();
      if (hosts.length > 0)
        await trx
          .insertInto('office_host')
          .values(hosts.map((host) => ({ host, office_id: officeId, created_at: at })))
          .execute();
    },

    /** Whether the office already has a staff user of this name, in any case. */
    async staffUsernameTaken(officeId: number, username: string): Promise<boolean> {
      const row = await k
        .selectFrom('staff_user')
        .select('id')
        .where('office_id', '=', officeId)
        .where(sql<string>`lower(username)`, '=', username)
        .executeTakeFirst();
      return row !== undefined;
    },
    async insertOfficeAdmin(
      trx: Kysely<DB>,
      row: { office_id: number; username: string; name: string; password_hash: string; at: string },
    ): Promise<number> {
      const inserted = await trx
        .insertInto('staff_user')
        .values({
          office_id: row.office_id,
          username: row.username,
          name: row.name,
          password_hash: row.password_hash,
          role: 'admin',
          disabled: 0,
          must_change_password: 1,
          password_set_at: row.at,
          created_at: row.at,
          updated_at: row.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return inserted.id;
    },

    /** Whether the platform's chain is whole (audit/chain-check.ts). */
    auditChainState() {
      return chainState(k, platformChain(), mac);
    },
    /** In the platform's own audit chain, in `trx` with the change it records. */
    async insertAudit(row: PlatformAuditRecord, trx: Kysely<DB> = k) {
      await appendToChain(trx, mac, platformChain(), [row]);
    },
    async auditPage(offset: number, limit: number) {
      const [rows, total] = await Promise.all([
        k
          .selectFrom('platform_audit')
          .select(['id', 'seq', 'operator_name', 'action', 'target', 'detail', 'ip', 'at'])
          .orderBy('id', 'desc')
          .offset(offset)
          .limit(limit)
          .execute(),
        k
          .selectFrom('platform_audit')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },
  };
}
export type PlatformRepository = ReturnType<typeof createPlatformRepository>;
