import { randomBytes, randomInt } from 'node:crypto';
import { ErrorCode, maskIdno, type AppealItem, type AppealStatus, type ResolveAppealResult } from '@zhikaoyun/shared';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/app-error';
import type { DataCipher } from '../../lib/crypto';
import { hashPassword } from '../../lib/password';
import { nowIso } from '../../lib/time';
import type { AuditService } from '../audit/service';
import type { SessionsService } from '../sessions/service';
import type { AppealsRepository } from './repository';

/** Letters and digits that cannot be misheard or misread over the phone (no 0/O, 1/l/I). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** 12 characters from 31: about 59 bits, shown once, to be replaced by the owner at first login. */
export function temporaryPassword(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8).join('')}`;
}

/** How long a one-time password from staff works: time to pass it on by phone and log in (ASVS 6.4.1). */
export const TEMPORARY_PASSWORD_HOURS = 72;

export const RESET_QUESTION = '账号已由工作人员重置，请登录后重新设置密保问题';

interface StaffActor {
  id: number;
  officeId: number;
  name: string;
}

interface AppealsDeps {
  db: Db;
  repo: AppealsRepository;
  cipher: DataCipher;
  sessions: SessionsService;
  audit: AuditService;
}

/**
 * Identity squatting: someone registered my ID number. The appeal is kept with its ID number
 * encrypted; an admin calls the appellant back, compares the ID card and either resets the
 * account (every session revoked, a one-time password for the owner, the squatter's hint answer
 * and contact details replaced) or rejects the appeal with a reason. Both are audited.
 */
export function createAppealsService({ db, repo, cipher, sessions, audit }: AppealsDeps) {
  const accountsFor = (officeId: number, idnoIndexes: string[][]) => repo.accountsByIndex(officeId, [...new Set(idnoIndexes.flat())]);

  return {
    async submit(officeId: number, input: { name: string; idno: string; mobile: string; description: string }): Promise<void> {
      const now = nowIso();
      await repo.insert({
        office_id: officeId,
        name: input.name,
        idno_index: cipher.blindIndex('idno', input.idno),
        idno_enc: cipher.encrypt(input.idno),
        mobile: input.mobile,
        description: input.description,
        status: 'pending',
        handled_by: null,
        handled_at: null,
        created_at: now,
      });
    },

    async list(
      officeId: number,
      q: { status?: AppealStatus; page: number; pageSize: number },
    ): Promise<{ list: AppealItem[]; total: number }> {
      const { rows, total } = await repo.page(officeId, q.status, (q.page - 1) * q.pageSize, q.pageSize);
      const idnos = rows.map((r) => cipher.decrypt(r.idno_enc));
      const indexes = idnos.map((idno) => cipher.blindIndexes('idno', idno));
      const accounts = await accountsFor(officeId, indexes);
      return {
        list: rows.map((r, i) => {
          const account = accounts.find((a) => indexes[i]!.includes(a.idno_index));
          return {
            id: r.id,
            name: r.name,
            idnoMasked: maskIdno(idnos[i]!),
            mobile: r.mobile,
            description: r.description,
            status: r.status as AppealStatus,
            reason: r.reason,
            accountExists: account !== undefined,
            accountName: account?.name ?? '',
            createdAt: r.created_at,
            handledAt: r.handled_at,
          };
        }),
        total,
      };
    },

    async resolve(
      staff: StaffActor,
      input: { id: number; decision: 'reset' | 'reject'; reason: string },
      ip: string,
    ): Promise<ResolveAppealResult> {
      const appeal = await repo.find(staff.officeId, input.id);
      if (!appeal) throw new AppError(ErrorCode.NotFound, '申诉不存在');
      if (appeal.status !== 'pending') throw new AppError(ErrorCode.Validation, '该申诉已处理，请刷新列表');
      const now = nowIso();

      if (input.decision === 'reject') {
        const r = await db.kysely
          .updateTable('appeal')
          .set({ status: 'rejected', reason: input.reason, handled_by: staff.id, handled_at: now })
          .where('id', '=', appeal.id)
          .where('office_id', '=', staff.officeId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new AppError(ErrorCode.Validation, '该申诉已处理，请刷新列表');
        await audit.record(staff, 'appeal.reject', `appeal#${appeal.id}`, `驳回：${input.reason}`, ip);
        return { temporaryPassword: null };
      }

      const idno = cipher.decrypt(appeal.idno_enc);
      const [account] = await repo.accountsByIndex(staff.officeId, cipher.blindIndexes('idno', idno));
      if (!account) throw new AppError(ErrorCode.Validation, '该身份证号码目前没有注册账号，无需重置，请告知申诉人直接注册');
      const password = temporaryPassword();
      const passwordHash = await hashPassword(password);
      await db.kysely.transaction().execute(async (trx) => {
        const r = await trx
          .updateTable('appeal')
          .set({ status: 'reset', reason: input.reason, handled_by: staff.id, handled_at: now })
          .where('id', '=', appeal.id)
          .where('office_id', '=', staff.officeId)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) throw new AppError(ErrorCode.Validation, '该申诉已处理，请刷新列表');
        // The squatter loses every way back in: password, hint answer and contact details.
        await trx
          .updateTable('candidate')
          .set({
            password_hash: passwordHash,
            password_expires_at: new Date(Date.now() + TEMPORARY_PASSWORD_HOURS * 3600_000).toISOString(),
            name: appeal.name,
            mobile: appeal.mobile,
            email: '',
            question: RESET_QUESTION,
            answer_enc: cipher.encrypt(randomBytes(24).toString('base64url')),
            updated_at: now,
          })
          .where('id', '=', account.id)
          .where('office_id', '=', staff.officeId)
          .execute();
      });
      await sessions.revokeAll('candidate', account.id);
      await audit.record(
        staff,
        'appeal.reset',
        `appeal#${appeal.id}`,
        `重置账号 candidate#${account.id}：作废全部登录会话，设置一次性密码，替换密保与联系方式${input.reason ? `；${input.reason}` : ''}`,
        ip,
      );
      return { temporaryPassword: password };
    },
  };
}
export type AppealsService = ReturnType<typeof createAppealsService>;
