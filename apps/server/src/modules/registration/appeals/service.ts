import { randomBytes, randomInt } from 'node:crypto';
import { auditTarget, ErrorCode, maskIdno, type AppealItem, type AppealStatus, type ResolveAppealResult } from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import type { DataCipher } from '../../../lib/crypto';
import { hashPassword } from '../../../lib/password';
import { isoIn, nowIso } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { AuditService } from '../../platform/audit/service';
import { officeAdminScope } from '../../access/scope';
import type { SessionsService } from '../../access/sessions/service';
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

const ALREADY_HANDLED = '该申诉已处理，请刷新列表';

export const RESET_QUESTION = '账号已由工作人员重置，请登录后重新设置密保问题';

type StaffActor = Pick<StaffPrincipal, 'id' | 'officeId' | 'name' | 'role'>;

interface AppealsDeps {
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
export function createAppealsService({ repo, cipher, sessions, audit }: AppealsDeps) {
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

    /** The office's appeals, for its admins (the same scope rule as the audit log). */
    async list(
      staff: Pick<StaffPrincipal, 'officeId' | 'role'>,
      q: { status?: AppealStatus | undefined; page: number; pageSize: number },
    ): Promise<{ list: AppealItem[]; total: number }> {
      const { officeId } = officeAdminScope(staff);
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
            status: r.status,
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
      const { officeId } = officeAdminScope(staff);
      const appeal = await repo.find(officeId, input.id);
      if (!appeal) throw notFound('appeal');
      if (appeal.status !== 'pending') throw new AppError(ErrorCode.Validation, ALREADY_HANDLED);
      const outcome = { reason: input.reason, handledBy: staff.id, at: nowIso() };

      if (input.decision === 'reject') {
        const done = await repo.reject(officeId, appeal.id, outcome, (trx) =>
          audit.record(staff, '驳回身份申诉', auditTarget('appeal', appeal.id), `驳回：${input.reason}`, ip, trx),
        );
        if (!done) throw new AppError(ErrorCode.Validation, ALREADY_HANDLED);
        return { temporaryPassword: null };
      }

      const idno = cipher.decrypt(appeal.idno_enc);
      const [account] = await repo.accountsByIndex(officeId, cipher.blindIndexes('idno', idno));
      if (!account) throw new AppError(ErrorCode.Validation, '该身份证号码目前没有注册账号，无需重置，请告知申诉人直接注册');
      const password = temporaryPassword();
      // The squatter loses every way back in: password, hint answer and contact details.
      const reset = {
        candidateId: account.id,
        passwordHash: await hashPassword(password),
        passwordExpiresAt: isoIn(TEMPORARY_PASSWORD_HOURS * 3600_000),
        name: appeal.name,
        mobile: appeal.mobile,
        question: RESET_QUESTION,
        answerEnc: cipher.encrypt(randomBytes(24).toString('base64url')),
      };
      const done = await repo.reset(officeId, appeal.id, outcome, reset, (trx) =>
        audit.record(
          staff,
          '重置申诉账号',
          auditTarget('appeal', appeal.id),
          `重置账号 ${auditTarget('candidate', account.id)}：作废全部登录会话，设置一次性密码，替换密保与联系方式${input.reason ? `；${input.reason}` : ''}`,
          ip,
          trx,
        ),
      );
      if (!done) throw new AppError(ErrorCode.Validation, ALREADY_HANDLED);
      await sessions.revokeAll('candidate', account.id);
      return { temporaryPassword: password };
    },
  };
}
