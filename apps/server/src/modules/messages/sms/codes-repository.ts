import type { SmsCodePurpose } from '@zhikaoyun/shared';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../../../db/database';
import { param, prepare } from '../../../db/prepared';
import type { DB } from '../../../db/schema';

export interface NewSmsCode {
  officeId: number;
  mobile: string;
  purpose: SmsCodePurpose;
  codeHash: string;
  ip: string;
  expiresAt: string;
  at: string;
}

/**
 * The SQL of phone verification codes (sms_code). Every send counts the phone's and the address's
 * recent codes and every check reads the latest code: prepared once.
 */
export function createSmsCodesRepository(db: Db) {
  const k = db.kysely;
  const countSince = (column: 'mobile' | 'ip') =>
    prepare(db, { value: param<string>(), since: param<string>() }, (p) =>
      k
        .selectFrom('sms_code')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(column, '=', p.value)
        .where('created_at', '>', p.since),
    );
  const byMobile = countSince('mobile');
  const byIp = countSince('ip');
  const insert = prepare(
    db,
    {
      officeId: param<number>(),
      mobile: param<string>(),
      purpose: param<SmsCodePurpose>(),
      codeHash: param<string>(),
      ip: param<string>(),
      expiresAt: param<string>(),
      at: param<string>(),
    },
    (p) =>
      k.insertInto('sms_code').values({
        office_id: p.officeId,
        mobile: p.mobile,
        purpose: p.purpose,
        code_hash: p.codeHash,
        ip: p.ip,
        used_at: null,
        expires_at: p.expiresAt,
        created_at: p.at,
      }),
  );
  const latest = prepare(
    db,
    { officeId: param<number>(), mobile: param<string>(), purpose: param<SmsCodePurpose>(), now: param<string>() },
    (p) =>
      k
        .selectFrom('sms_code')
        .select(['id', 'code_hash', 'tries'])
        .where('office_id', '=', p.officeId)
        .where('mobile', '=', p.mobile)
        .where('purpose', '=', p.purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', p.now)
        .orderBy('id', 'desc')
        .limit(1),
  );
  const addTry = prepare(db, { id: param<number>() }, (p) =>
    k
      .updateTable('sms_code')
      .set({ tries: sql<number>`tries + 1` })
      .where('id', '=', p.id),
  );
  const use = prepare(db, { id: param<number>(), now: param<string>(), maxTries: param<number>() }, (p) =>
    k.updateTable('sms_code').set({ used_at: p.now }).where('id', '=', p.id).where('used_at', 'is', null).where('tries', '<', p.maxTries),
  );

  return {
    /** Codes sent to this phone since `since`. */
    async countForMobile(mobile: string, since: string): Promise<number> {
      return Number((await byMobile.first({ value: mobile, since }))?.n ?? 0);
    },

    /** Codes asked for from this address since `since`. */
    async countForIp(ip: string, since: string): Promise<number> {
      return Number((await byIp.first({ value: ip, since }))?.n ?? 0);
    },

    /** Records a code in the caller's transaction, beside the SMS that carries it. */
    async insert(trx: Kysely<DB>, code: NewSmsCode): Promise<void> {
      await insert.run(code, trx);
    },

    /** The latest code of this phone and purpose still unused and unexpired at `now`. */
    latest(officeId: number, mobile: string, purpose: SmsCodePurpose, now: string) {
      return latest.first({ officeId, mobile, purpose, now });
    },

    async addTry(id: number): Promise<void> {
      await addTry.run({ id });
    },

    /** Uses the code up; false when another request used it first or it ran out of tries. */
    async use(id: number, now: string, maxTries: number): Promise<boolean> {
      return (await use.run({ id, now, maxTries })) === 1;
    },
  };
}

export type SmsCodesRepository = ReturnType<typeof createSmsCodesRepository>;
