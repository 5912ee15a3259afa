import { zonedDay } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { SYSTEM, type PurgeDeps } from './purge-common';

/**
 * Identity appeals (申诉) hold an ID number, a name and a phone: a handled one goes with the
 * personal data of the account its ID number names (found by the blind index, which stays). A
 * pending one stays until staff handle it; `expiredAppeals` then takes it after retention.
 */
const handledAppeals = (k: Kysely<DB>, officeId: number) =>
  k.selectFrom('appeal').where('office_id', '=', officeId).where('status', '!=', 'pending');
const idnoIndexesOf = (k: Kysely<DB>, candidateIds: number[]) =>
  k.selectFrom('candidate').select('idno_index').where('id', 'in', candidateIds);

export async function countAppeals(k: Kysely<DB>, officeId: number, candidateIds: number[]): Promise<number> {
  const r = await handledAppeals(k, officeId)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('idno_index', 'in', idnoIndexesOf(k, candidateIds))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
export async function deleteAppeals(trx: Kysely<DB>, officeId: number, candidateIds: number[]): Promise<number> {
  const r = await trx
    .deleteFrom('appeal')
    .where('office_id', '=', officeId)
    .where('status', '!=', 'pending')
    .where('idno_index', 'in', idnoIndexesOf(trx, candidateIds))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Handled appeals whose handling is older than retention (those of no account, or of a kept one), counted or deleted; audited with the count. */
export async function expiredAppeals(
  deps: PurgeDeps,
  officeId: number,
  before: string,
  { asOf, dryRun, timeZone }: { asOf: string; dryRun: boolean; timeZone: string },
): Promise<number> {
  if (dryRun) {
    const r = await handledAppeals(deps.db, officeId)
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('handled_at', '<', before)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  return deps.db.transaction().execute(async (trx) => {
    const r = await trx
      .deleteFrom('appeal')
      .where('office_id', '=', officeId)
      .where('status', '!=', 'pending')
      .where('handled_at', '<', before)
      .executeTakeFirst();
    const n = Number(r.numDeletedRows);
    if (n > 0)
      await deps.audit.record(
        SYSTEM(officeId),
        '删除过期身份申诉',
        `office:${officeId}`,
        `保存期限届满：删除 ${zonedDay(asOf, timeZone)} 前已处理满期限的申诉 ${n} 条`,
        '',
        trx,
      );
    return n;
  });
}
