import {
  AUDIT_PURGE_ACTION,
  type AuditChainState,
  DEFAULT_MENU,
  ErrorCode,
  type PasswordChanged,
  type PasswordChangeDue,
  type OfficeAdminResult,
  type PlatformAuditEntry,
  type PlatformLoginResult,
  type PlatformOffice,
} from '@zhikaoyun/shared';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { isUniqueViolation } from '../../../db/errors';
import { AppError, notFound } from '../../../lib/app-error';
import { clock, isoIn, nowIso } from '../../../lib/clock';
import { failureGuard, sessionStrikes, STEP_UP_CAPTCHA_MAX_AGE_MS } from '../../../lib/failure-guard';
import { hashPassword, verifyPassword } from '../../../lib/password';
import type { CounterStore } from '../../../lib/throttle';
import { AGREEMENT_TITLE, BLANK_OFFICE_SETTINGS, registrationAgreement } from './defaults';
import type { CaptchaService } from '../../access/captcha/service';
import type { SecondFactorService } from '../../access/totp/service';
import { ABSOLUTE_TIMEOUT_MS } from '../../access/sessions/service';
import type { PasswordPolicy } from '../../access/staff/password-policy';
import type { PlatformRepository } from './repository';

/** The operator behind a platform call. */
export interface OperatorPrincipal {
  id: number;
  sessionId: number;
  name: string;
  /** A one-time or expired password: nothing but its change until then. */
  passwordChange: PasswordChangeDue | null;
  /** How much longer (ms) the session stays valid unused (idle or absolute limit). */
  validForMs: number;
}

/** What every platform action is logged under (platform_audit.action). */
export const PLATFORM_ACTIONS = {
  login: '登录',
  endOlderSessions: '结束旧会话',
  logout: '退出',
  changePassword: '修改密码',
  createOffice: '新建考试机构',
  editOffice: '修改考试机构',
  disableOffice: '暂停考试机构',
  enableOffice: '恢复考试机构',
  createOfficeAdmin: '创建机构管理员',
  enableTotp: '开启两步验证',
  recoveryCodeLogin: '使用恢复码登录',
  /** Written by `npm run purge-audit`, not by a call (modules/platform/audit/purge.ts). */
  purgeAudit: AUDIT_PURGE_ACTION,
} as const;

const TOUCH_EVERY_MS = 60 * 1000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A one-time password: 16 characters of letters and digits, easy to read out and type once. */
export function oneTimePassword(): string {
  return randomBytes(12).toString('base64url');
}

export interface PlatformDeps {
  repo: PlatformRepository;
  /** The captcha service over the operator's own captcha table (composition.ts). */
  captcha: CaptchaService;
  counters: CounterStore | null;
  /** An office changed (name, code, hosts, state): whatever is kept of it elsewhere is forgotten. */
  officeChanged: (officeId: number) => Promise<void>;
  /** The sign-in's second step (TOTP or a recovery code) once the operator has enrolled. */
  secondFactor: Pick<SecondFactorService, 'signIn'>;
  /** The staff password policy, the operator's too (decision 030). */
  passwords: PasswordPolicy;
  /** A session ends after this long unused (STAFF_IDLE_MINUTES). */
  idleMs: number;
}

/**
 * The platform operator's calls: sign-in (its own sessions, kept apart from every office's), the
 * password change a one-time password asks for, the offices with their host names and counts,
 * each office's first admin, and the platform's audit log.
 */
export function createPlatformService({ repo, captcha, counters, officeChanged, secondFactor, passwords, idleMs }: PlatformDeps) {
  const guard = failureGuard(counters, 'platform-login', '登录');
  const strikes = sessionStrikes(counters, 5, 'reauth:platform-session');
  let decoyHash: Promise<string> | null = null;

  function audit(
    actor: { id: number; name: string },
    action: (typeof PLATFORM_ACTIONS)[keyof typeof PLATFORM_ACTIONS],
    target: string,
    detail: string,
    ip: string,
    trx?: Kysely<DB>,
  ) {
    return repo.insertAudit({ operator_id: actor.id, operator_name: actor.name, action, target, detail, ip, at: nowIso() }, trx);
  }

  /** Refuses a code or a host another office has, naming it. */
  async function checkUnique(code: string, hosts: readonly string[], exceptId: number | undefined) {
    const codeOwner = await repo.codeOwner(code, exceptId);
    if (codeOwner) throw new AppError(ErrorCode.Validation, `机构代码 ${code} 已被「${codeOwner.name}」使用，请换一个`);
    const taken = await repo.hostOwners(hosts, exceptId);
    if (taken[0])
      throw new AppError(ErrorCode.Validation, `域名 ${taken[0].host} 已绑定到「${taken[0].name}」，一个域名只能属于一个考试机构`);
  }

  /** A new session of the operator: its token and id. */
  async function openSession(operatorId: number): Promise<{ token: string; id: number }> {
    const token = randomBytes(32).toString('base64url');
    const now = nowIso();
    const id = await repo.insertSession({
      token_hash: hashToken(token),
      operator_id: operatorId,
      created_at: now,
      last_seen_at: now,
      expires_at: isoIn(ABSOLUTE_TIMEOUT_MS),
    });
    return { token, id };
  }

  return {
    captcha,

    async login(
      input: {
        username: string;
        password: string;
        captchaId: string;
        captcha: string;
        totp?: string | undefined;
        recoveryCode?: string | undefined;
      },
      ip: string,
    ): Promise<PlatformLoginResult> {
      const account = input.username.trim().toLowerCase();
      const { stepUp } = await guard.check(0, account, ip);
      const fresh = stepUp ? { maxAgeMs: STEP_UP_CAPTCHA_MAX_AGE_MS } : {};
      if (!(await captcha.verify(0, input.captchaId, input.captcha, fresh))) throw new AppError(ErrorCode.CaptchaInvalid);
      const row = await repo.operatorByUsername(account);
      // An unknown name costs the same hash as a wrong password: the answer tells nothing apart.
      const ok = row
        ? await verifyPassword(row.password_hash, input.password)
        : (await verifyPassword(await (decoyHash ??= hashPassword('decoy-platform')), input.password), false);
      if (!row || !ok) {
        await guard.fail(0, account, ip);
        throw new AppError(ErrorCode.LoginFailed, '用户名或密码错误');
      }
      const { mustEnrollTotp } = await secondFactor.signIn({ kind: 'operator', id: row.id, name: row.name }, undefined, input, ip, () =>
        guard.fail(0, account, ip),
      );
      await guard.succeed(0, account, ip);
      const { token, id } = await openSession(row.id);
      await audit(row, PLATFORM_ACTIONS.login, `operator:${row.id}`, '', ip);
      // One session at a time: this sign-in ends the older ones.
      const ended = await repo.revokeOtherSessions(row.id, id, nowIso(), isoIn(-idleMs));
      if (ended > 0) await audit(row, PLATFORM_ACTIONS.endOlderSessions, `operator:${row.id}`, `新的登录结束了 ${ended} 个旧会话`, ip);
      return { token, ...passwords.signInFlags(row), ...(mustEnrollTotp ? { mustEnrollTotp: true as const } : {}) };
    },

    /** The operator of a live platform session, or null (unknown, revoked, idle too long, expired). */
    async authenticate(token: string): Promise<OperatorPrincipal | null> {
      if (!token || token.length > 200) return null;
      const session = await repo.sessionByHash(hashToken(token));
      if (!session || session.revoked_at !== null) return null;
      const now = clock.nowMs();
      const lastSeen = Date.parse(session.last_seen_at);
      if (Date.parse(session.expires_at) <= now || lastSeen + idleMs <= now) return null;
      const touched = now - lastSeen > TOUCH_EVERY_MS;
      if (touched) await repo.touchSession(session.id, new Date(now).toISOString());
      const operator = await repo.operatorById(session.operator_id);
      if (!operator) return null;
      return {
        id: operator.id,
        sessionId: session.id,
        name: operator.name,
        passwordChange: passwords.changeDue(operator),
        validForMs: Math.min(Date.parse(session.expires_at), (touched ? now : lastSeen) + idleMs) - now,
      };
    },

    async logout(operator: OperatorPrincipal, ip: string): Promise<void> {
      await repo.revokeSession(operator.sessionId, nowIso());
      await audit(operator, PLATFORM_ACTIONS.logout, `operator:${operator.id}`, '', ip);
    },

    /**
     * The operator's own password; a few wrong old passwords end the session. Every session ends,
     * this one too: the answer is a fresh session's token.
     */
    async changePassword(
      operator: OperatorPrincipal,
      input: { oldPassword: string; newPassword: string },
      ip: string,
    ): Promise<PasswordChanged> {
      const row = await repo.operatorById(operator.id);
      if (!row) throw new AppError(ErrorCode.Unauthorized);
      if (!(await verifyPassword(row.password_hash, input.oldPassword))) {
        if (await strikes.strike(operator.sessionId)) {
          await repo.revokeSession(operator.sessionId, nowIso());
          throw new AppError(ErrorCode.Unauthorized, '原密码多次输入错误，请重新登录');
        }
        throw new AppError(ErrorCode.WrongPassword);
      }
      await strikes.clear(operator.sessionId);
      await repo.setOperatorPassword(operator.id, await passwords.newPassword(row.username, input.newPassword, row), nowIso());
      await repo.revokeAllSessions(operator.id, nowIso());
      const { token } = await openSession(operator.id);
      await audit(operator, PLATFORM_ACTIONS.changePassword, `operator:${operator.id}`, '所有会话已结束', ip);
      return { token };
    },

    async offices(): Promise<{ list: PlatformOffice[] }> {
      return { list: await repo.offices() };
    },

    /** Creates or edits an office: code, name, host names, and whether it is paused. */
    async saveOffice(
      operator: OperatorPrincipal,
      input: { id?: number | undefined; code: string; name: string; hosts: string[]; disabled?: boolean | undefined },
      ip: string,
    ): Promise<{ id: number }> {
      const before = input.id === undefined ? undefined : await repo.office(input.id);
      if (input.id !== undefined && !before) throw notFound('office');
      await checkUnique(input.code, input.hosts, input.id);
      const at = nowIso();
      try {
        const id = await repo.transaction(async (trx) => {
          if (!before) {
            const disabled = input.disabled === true;
            const id = await repo.insertOffice(trx, {
              code: input.code,
              name: input.name,
              settings: JSON.stringify(BLANK_OFFICE_SETTINGS),
              menu: JSON.stringify(DEFAULT_MENU),
              agreement_title: AGREEMENT_TITLE,
              agreement_content: registrationAgreement(input.name, null),
              agreement_updated_at: at,
              created_at: at,
              updated_at: at,
              disabled: disabled ? 1 : 0,
              disabled_at: disabled ? at : null,
            });
            await repo.replaceHosts(trx, id, input.hosts, at);
            await audit(
              operator,
              PLATFORM_ACTIONS.createOffice,
              `office:${id}`,
              `${input.code} ${input.name}；域名：${input.hosts.join('、') || '无'}`,
              ip,
              trx,
            );
            return id;
          }
          const wasDisabled = before.disabled === 1;
          const disabled = input.disabled ?? wasDisabled;
          await repo.updateOffice(trx, before.id, {
            code: input.code,
            name: input.name,
            disabled: disabled ? 1 : 0,
            disabled_at: disabled ? (wasDisabled ? null : at) : null,
            updated_at: at,
          });
          await repo.replaceHosts(trx, before.id, input.hosts, at);
          const target = `office:${before.id}`;
          await audit(
            operator,
            PLATFORM_ACTIONS.editOffice,
            target,
            `${input.code} ${input.name}；域名：${input.hosts.join('、') || '无'}`,
            ip,
            trx,
          );
          if (disabled !== wasDisabled)
            await audit(operator, disabled ? PLATFORM_ACTIONS.disableOffice : PLATFORM_ACTIONS.enableOffice, target, input.name, ip, trx);
          return before.id;
        });
        await officeChanged(id);
        return { id };
      } catch (err) {
        // Another operator took the code or a host a moment before: the same answer as the check's.
        if (isUniqueViolation(err)) {
          await checkUnique(input.code, input.hosts, input.id);
          throw new AppError(ErrorCode.Conflict);
        }
        throw err;
      }
    },

    /** An office's admin with a one-time password, shown in this answer only; changed at the first sign-in. */
    async createOfficeAdmin(
      operator: OperatorPrincipal,
      input: { officeId: number; username: string; name: string },
      ip: string,
    ): Promise<OfficeAdminResult> {
      const office = await repo.office(input.officeId);
      if (!office) throw notFound('office');
      const username = input.username.trim().toLowerCase();
      const taken = () => new AppError(ErrorCode.Validation, `该机构已有用户名为 ${username} 的人员，请换一个用户名`);
      if (await repo.staffUsernameTaken(office.id, username)) throw taken();
      const initialPassword = oneTimePassword();
      const passwordHash = await hashPassword(initialPassword);
      try {
        await repo.transaction(async (trx) => {
          const id = await repo.insertOfficeAdmin(trx, {
            office_id: office.id,
            username,
            name: input.name,
            password_hash: passwordHash,
            at: nowIso(),
          });
          await audit(
            operator,
            PLATFORM_ACTIONS.createOfficeAdmin,
            `office:${office.id}`,
            `${office.name}：管理员 ${username}（${input.name}），人员 #${id}`,
            ip,
            trx,
          );
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw taken();
        throw err;
      }
      return { username, initialPassword };
    },

    auditChainState(): Promise<AuditChainState> {
      return repo.auditChainState();
    },
    async auditLog(page: number, pageSize: number): Promise<{ list: PlatformAuditEntry[]; total: number }> {
      const { rows, total } = await repo.auditPage((page - 1) * pageSize, pageSize);
      return {
        list: rows.map((r) => ({
          id: r.id,
          seq: r.seq,
          operatorName: r.operator_name,
          action: r.action,
          target: r.target,
          detail: r.detail,
          ip: r.ip,
          at: r.at,
        })),
        total,
      };
    },
  };
}
