import {
  ErrorCode,
  formatRecoveryCode,
  officeSettingsSchema,
  TOTP_ENFORCED_ROLES,
  type RecoveryCodes,
  type StaffRole,
  type TotpSetup,
  type TotpStatus,
} from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import { parseJsonColumn } from '../../../lib/json';
import { hashPassword, verifyPassword } from '../../../lib/password';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { SessionsService } from '../sessions/service';
import { acceptedStep, newRecoveryCodes, newSecret, otpauthUrl, qrDataUrl } from './codes';
import type { SecondFactorRepository } from './repository';

/** What the configuration says of the second factor (config.ts, from NODE_ENV). */
export interface SecondFactorConfig {
  /**
   * Under NODE_ENV=production: staff of `TOTP_ENFORCED_ROLES` and the platform operator must
   * enroll before any other call succeeds. Off, the second factor is each person's choice (the
   * demo under `npm start`), unless an office requires it of all its staff.
   */
  enforced: boolean;
}

/** Whose second factor: an office's staff member, or the platform's operator. */
export type FactorOwner = { kind: 'staff'; id: number; officeId: number; name: string } | { kind: 'operator'; id: number; name: string };

/** The two events of a person's own factor that their log keeps. */
type OwnEvent = '开启两步验证' | '使用恢复码登录';

export interface SecondFactorDeps {
  repo: SecondFactorRepository;
  cipher: DataCipher;
  config: SecondFactorConfig;
  /** The office's audit log, for staff. */
  audit: AuditService;
  /** The platform's audit log, for the operator. */
  operatorAudit: (operator: { id: number; name: string }, action: OwnEvent, detail: string, ip: string) => Promise<void>;
  sessions: Pick<SessionsService, 'revokeAll'>;
  /** A staff member of the office, for a reset. */
  findStaff: (officeId: number, id: number) => Promise<{ id: number; username: string } | undefined>;
}

const officeRuleSchema = officeSettingsSchema.pick({ staffTotpRequired: true });

/**
 * TOTP second factor (RFC 6238) of staff and the platform operator: enrolling (a secret shown as
 * a QR code, confirmed by a first code, ten recovery codes), the check at sign-in (each code
 * accepted once; a wrong one counted by the caller with the password's failures), who must
 * enroll before anything else, and a reset by another staff member.
 */
export function createSecondFactorService({ repo, cipher, config, audit, operatorAudit, sessions, findStaff }: SecondFactorDeps) {
  const subject = (owner: FactorOwner) => [owner.kind, owner.id] as const;

  function recordOwn(owner: FactorOwner, action: OwnEvent, detail: string, ip: string): Promise<void> {
    if (owner.kind === 'operator') return operatorAudit(owner, action, detail, ip);
    return audit.record({ id: owner.id, officeId: owner.officeId, name: owner.name }, action, `staff:${owner.id}`, detail, ip);
  }

  async function enrolled(owner: FactorOwner): Promise<boolean> {
    return ((await repo.find(...subject(owner)))?.enabled_at ?? null) !== null;
  }

  /** Whether this person is asked to enroll before anything else (not whether they have). */
  function required(owner: FactorOwner, role: StaffRole | undefined, officeRequiresAll: boolean): boolean {
    if (owner.kind === 'operator') return config.enforced;
    return officeRequiresAll || (config.enforced && role !== undefined && TOTP_ENFORCED_ROLES.includes(role));
  }

  const alreadyEnrolled = (owner: FactorOwner) =>
    new AppError(
      ErrorCode.Validation,
      owner.kind === 'staff'
        ? '已开启两步验证。如需更换手机或恢复码已用完，请联系安全管理员重置两步验证'
        : '已开启两步验证。如需更换手机，请先用恢复码登录',
    );

  return {
    /**
     * Whether the person must enroll before any other call: required of them and not done.
     * `officeRequiresAll`: the office's setting, for staff (the request's office carries it).
     */
    async mustEnroll(owner: FactorOwner, role: StaffRole | undefined, officeRequiresAll: boolean): Promise<boolean> {
      return required(owner, role, officeRequiresAll) && !(await enrolled(owner));
    },

    async status(owner: FactorOwner, role: StaffRole | undefined, officeRequiresAll: boolean): Promise<TotpStatus> {
      const isEnrolled = await enrolled(owner);
      return {
        enrolled: isEnrolled,
        recoveryCodesLeft: isEnrolled ? (await repo.unusedCodes(...subject(owner))).length : 0,
        required: required(owner, role, officeRequiresAll),
      };
    },

    /**
     * The second step of a sign-in whose password was right: nothing for a person without a
     * factor; else a dynamic code (of a later step than the last one accepted) or an unspent
     * recovery code. A wrong one calls `failed` (the sign-in's failure counters) and is refused;
     * none at all is refused without counting. Answers whether the person must still enroll.
     */
    async signIn(
      owner: FactorOwner,
      role: StaffRole | undefined,
      input: { totp?: string | undefined; recoveryCode?: string | undefined },
      ip: string,
      failed: () => Promise<void>,
    ): Promise<{ mustEnrollTotp: boolean }> {
      const row = await repo.find(...subject(owner));
      if (!row?.enabled_at || !row.secret_enc) {
        const officeRequiresAll =
          owner.kind === 'staff' &&
          parseJsonColumn(officeRuleSchema, (await repo.officeSettings(owner.officeId)) ?? '{}', { staffTotpRequired: false })
            .staffTotpRequired;
        return { mustEnrollTotp: required(owner, role, officeRequiresAll) };
      }
      const wrong = async () => {
        await failed();
        return new AppError(ErrorCode.SecondFactorInvalid);
      };
      if (input.totp) {
        const step = await acceptedStep(cipher.decrypt(row.secret_enc), input.totp, row.last_step);
        if (step !== null && (await repo.takeStep(...subject(owner), step, nowIso()))) return { mustEnrollTotp: false };
        throw await wrong();
      }
      if (input.recoveryCode) {
        const unused = await repo.unusedCodes(...subject(owner));
        for (const code of unused) {
          if (!(await verifyPassword(code.code_hash, input.recoveryCode))) continue;
          if (!(await repo.spendCode(code.id, nowIso()))) break;
          await recordOwn(owner, '使用恢复码登录', `剩余恢复码 ${unused.length - 1} 个`, ip);
          return { mustEnrollTotp: false };
        }
        throw await wrong();
      }
      throw new AppError(ErrorCode.SecondFactorRequired);
    },

    /** A new secret for the person's authenticator app, kept until confirmed (a second start replaces it). */
    async start(owner: FactorOwner, issuer: string, account: string): Promise<TotpSetup> {
      if (await enrolled(owner)) throw alreadyEnrolled(owner);
      const secret = newSecret();
      await repo.setPending(...subject(owner), cipher.encrypt(secret), nowIso());
      const url = otpauthUrl(secret, issuer, account);
      return { secret, otpauthUrl: url, qr: await qrDataUrl(url) };
    },

    /**
     * A first code from the app proves it holds the started secret: the factor is on, and the
     * ten recovery codes are answered this once (only their argon2id hashes are kept).
     */
    async confirm(owner: FactorOwner, code: string, ip: string): Promise<RecoveryCodes> {
      const row = await repo.find(...subject(owner));
      if (row?.enabled_at) throw alreadyEnrolled(owner);
      if (!row?.pending_enc) throw new AppError(ErrorCode.Validation, '请先获取二维码，用验证器 App 扫码后再输入动态验证码');
      const pending = row.pending_enc;
      const step = await acceptedStep(cipher.decrypt(pending), code, null);
      if (step === null)
        throw new AppError(ErrorCode.SecondFactorInvalid, '动态验证码不正确，请确认手机时间准确后，输入验证器 App 中当前显示的 6 位数字');
      const codes = newRecoveryCodes();
      const hashes = await Promise.all(codes.map((c) => hashPassword(c)));
      const at = nowIso();
      const done = await repo.transaction(async (trx) => {
        if (!(await repo.enable(trx, ...subject(owner), pending, step, hashes, at))) return false;
        if (owner.kind === 'staff')
          await audit.record(
            { id: owner.id, officeId: owner.officeId, name: owner.name },
            '开启两步验证',
            `staff:${owner.id}`,
            '',
            ip,
            trx,
          );
        return true;
      });
      if (!done) throw new AppError(ErrorCode.Conflict);
      if (owner.kind === 'operator') await recordOwn(owner, '开启两步验证', '', ip);
      return { recoveryCodes: codes.map(formatRecoveryCode) };
    },

    /**
     * Another staff member (of the role the route allows) removes a colleague's second factor, e.g.
     * a lost phone: audited, and the colleague's sessions end; they enroll again at their next
     * sign-in where it is required. Nobody resets their own.
     */
    async resetStaff(actor: AuditActor, staffId: number, ip: string): Promise<void> {
      if (staffId === actor.id) throw new AppError(ErrorCode.Forbidden, '不能重置自己的两步验证，请由其他有权限的人员操作');
      const target = await findStaff(actor.officeId, staffId);
      if (!target) throw notFound('staff');
      const row = await repo.find('staff', staffId);
      if (!row?.enabled_at) throw new AppError(ErrorCode.Validation, '该人员尚未开启两步验证，无需重置');
      await repo.transaction(async (trx) => {
        await repo.remove(trx, 'staff', staffId);
        await audit.record(actor, '重置两步验证', `staff:${staffId}`, target.username, ip, trx);
      });
      await sessions.revokeAll('staff', staffId);
    },
  };
}
export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
