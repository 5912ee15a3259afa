import {
  auditTarget,
  birthdayFromIdno,
  ERROR_TEXT,
  ErrorCode,
  HINT_ANSWER_MASK,
  isSecurityQuestion,
  SECURITY_QUESTIONS,
  sexFromIdno,
  type AuthResult,
  type RevealedHintAnswer,
  type UserInfo,
} from '@zhikaoyun/shared';
import type { z } from 'zod';
import type { changePasswordSchema, loginSchema, registerSchema, resetPasswordSchema, updateUserInfoSchema } from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../../db/errors';
import { AppError } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import { dataUrl } from '../../../lib/data-url';
import { failureGuard, STEP_UP_CAPTCHA_MAX_AGE_MS } from '../../../lib/failure-guard';
import { hashPassword, verifyPassword } from '../../../lib/password';
import type { CounterStore } from '../../../lib/throttle';
import type { AuditService } from '../../platform/audit/service';
import type { CaptchaService } from '../captcha/service';
import type { IdentityService } from '../identity/service';
import type { SessionsService } from '../sessions/service';
import { processPhoto } from './photo';
import type { Reauth } from './reauth';
import type { AccountsRepository, CandidateRow } from './repository';

type RegisterData = z.output<typeof registerSchema>;
type LoginData = z.output<typeof loginSchema>;
type ResetData = z.output<typeof resetPasswordSchema>;
type UpdateData = z.output<typeof updateUserInfoSchema>;
type ChangePasswordData = z.output<typeof changePasswordSchema>;

/** The signed-in candidate's request: who, which session, from where. */
export interface CandidateCall {
  officeId: number;
  candidateId: number;
  sessionId: number;
  ip: string;
}

/** Names of the fields `updateUserInfo` changed, as the audit line shows them. */
const FIELD_LABEL = { mobile: '手机号码', email: '电子邮箱', question: '密保问题', answer: '提示答案' } as const;
type ChangedField = keyof typeof FIELD_LABEL;

export interface AccountsDeps {
  repo: AccountsRepository;
  cipher: DataCipher;
  captcha: CaptchaService;
  sessions: SessionsService;
  counters: CounterStore | null;
  reauth: Reauth;
  audit: AuditService;
  /** Phone verification codes (modules/messages/sms/codes.ts): checked when the office asks for them. */
  phoneCodes?: {
    required(officeId: number): Promise<boolean>;
    verify(officeId: number, mobile: string, purpose: 'register' | 'reset', code: string | undefined): Promise<void>;
  };
  /** Why the candidate's ID photo may not change now (an application under review or approved), or null. */
  photoLock: (officeId: number, candidateId: number) => Promise<string | null>;
  /** The real-name check before an account is written (issue 33). */
  identity: Pick<IdentityService, 'precheck' | 'recordRegistration'>;
}

export function createAccountsService({
  repo,
  cipher,
  captcha,
  sessions,
  counters,
  reauth,
  audit,
  phoneCodes,
  photoLock,
  identity,
}: AccountsDeps) {
  const idnoIndex = (idno: string) => cipher.blindIndex('idno', idno);
  // Verifying against a real hash when the account does not exist keeps both answers equally slow.
  let decoyHash: Promise<string> | null = null;
  const decoy = () => (decoyHash ??= hashPassword('decoy-password-for-timing'));

  /** Under attack from many addresses (`stepUp`), only a captcha fetched a moment ago counts. */
  async function requireCaptcha(officeId: number, captchaId: string, code: string, stepUp = false) {
    const fresh = stepUp ? { maxAgeMs: STEP_UP_CAPTCHA_MAX_AGE_MS } : {};
    if (!(await captcha.verify(officeId, captchaId, code, fresh))) throw new AppError(ErrorCode.CaptchaInvalid);
  }

  const loginGuard = failureGuard(counters, 'login', '登录');
  const registerGuard = failureGuard(counters, 'register', '注册');
  const resetGuard = failureGuard(counters, 'reset', '找回密码');

  /**
   * A question for an ID number that has no account, or whose account has no question from the
   * list (one set by staff, or typed before the list existed): picked from the same list by a
   * keyed hash of the ID number, so it is the same on every ask and looks like a real one.
   */
  function decoyQuestion(idno: string): string {
    const pick = Number.parseInt(cipher.blindIndex('decoy-question', idno).slice(0, 8), 16) % SECURITY_QUESTIONS.length;
    return SECURITY_QUESTIONS[pick]!;
  }

  async function toUserInfo(row: CandidateRow): Promise<UserInfo> {
    let photo = '';
    if (row.photo_id !== null) {
      const p = await repo.findPhoto(row.office_id, row.photo_id);
      if (p) photo = dataUrl(p.mime, p.data);
    }
    return {
      id: row.id,
      idno: cipher.decrypt(row.idno_enc),
      name: row.name,
      photo,
      mobile: row.mobile,
      email: row.email,
      question: row.question,
      // Only whether one is set: the answer resets the password, so no session alone gets it.
      answer: row.answer_enc ? HINT_ANSWER_MASK : '',
      birthday: row.birthday,
      sex: row.sex === '男' || row.sex === '女' ? row.sex : '',
    };
  }

  async function candidate(officeId: number, id: number): Promise<CandidateRow> {
    const row = await repo.findById(officeId, id);
    if (!row) throw new AppError(ErrorCode.Unauthorized);
    return row;
  }

  return {
    async register(officeId: number, input: RegisterData, ip: string): Promise<AuthResult> {
      const index = idnoIndex(input.idno);
      // Repeated attempts on a taken ID number (squatting probes) are throttled like logins.
      await registerGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha);
      if (phoneCodes && (await phoneCodes.required(officeId))) await phoneCodes.verify(officeId, input.mobile, 'register', input.smsCode);
      if (await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno))) {
        await registerGuard.fail(officeId, index, ip);
        throw new AppError(ErrorCode.IdnoRegistered);
      }
      // Before the account is written: a name that is not the ID number's is refused here.
      const realName = await identity.precheck(input.idno, input.name);
      const now = nowIso();
      let id: number;
      try {
        id = await repo.insert({
          office_id: officeId,
          idno_index: index,
          idno_enc: cipher.encrypt(input.idno),
          name: input.name,
          birthday: birthdayFromIdno(input.idno) ?? '',
          sex: sexFromIdno(input.idno) ?? '',
          password_hash: await hashPassword(input.password),
          mobile: input.mobile,
          email: input.email,
          question: input.question,
          answer_enc: cipher.encrypt(input.answer),
          photo_id: null,
          consent_at: now,
          created_at: now,
          updated_at: now,
        });
      } catch (err) {
        // Two registrations of one ID number at once: the database keeps exactly one.
        if (isUniqueViolation(err)) throw new AppError(ErrorCode.IdnoRegistered);
        throw err;
      }
      await identity.recordRegistration(officeId, id, realName);
      const token = await sessions.open('candidate', id, officeId);
      return { token, userInfo: await toUserInfo(await candidate(officeId, id)) };
    },

    async login(officeId: number, input: LoginData, ip: string): Promise<AuthResult> {
      const index = idnoIndex(input.idno);
      const { stepUp } = await loginGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha, stepUp);
      const row = await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno));
      // A one-time password from staff (appeals) past its expiry fails like a wrong one.
      const ok = row
        ? (await verifyPassword(row.password_hash, input.password)) && !(row.password_expires_at && row.password_expires_at <= nowIso())
        : (await verifyPassword(await decoy(), input.password), false);
      if (!row || !ok) {
        await loginGuard.fail(officeId, index, ip);
        throw new AppError(ErrorCode.LoginFailed);
      }
      await loginGuard.succeed(officeId, index, ip);
      const token = await sessions.open('candidate', row.id, officeId);
      return { token, userInfo: await toUserInfo(row) };
    },

    logout(sessionId: number) {
      return sessions.revoke(sessionId);
    },

    async getUserInfo(officeId: number, id: number): Promise<UserInfo> {
      return toUserInfo(await candidate(officeId, id));
    },

    /**
     * Mobile, e-mail, security question and hint answer: each is a way into or a way to reach
     * the account, so the current password is required, the other sessions end when anything
     * changed, and the change is written to the office's audit log (which fields, never values).
     */
    async updateUserInfo(call: CandidateCall, input: UpdateData): Promise<{ userInfo: UserInfo; changed: ChangedField[] }> {
      const { officeId, candidateId, sessionId, ip } = call;
      const row = await candidate(officeId, candidateId);
      await reauth.confirm(officeId, row, sessionId, input.password, ip, new AppError(ErrorCode.WrongPassword, '密码不正确，修改未保存'));
      const email = input.email ?? '';
      const questionChanged = input.question !== row.question;
      if (questionChanged && !input.answer) throw new AppError(ErrorCode.Validation, '更换密保问题时请同时填写新的提示答案');
      const answerChanged = input.answer !== '' && input.answer !== cipher.decrypt(row.answer_enc);
      const changed: ChangedField[] = [];
      if (input.mobile !== row.mobile) changed.push('mobile');
      if (email !== row.email) changed.push('email');
      if (questionChanged) changed.push('question');
      if (answerChanged) changed.push('answer');
      if (changed.length === 0) return { userInfo: await toUserInfo(row), changed };

      await repo.updateProfile(officeId, candidateId, {
        mobile: input.mobile,
        email,
        question: input.question,
        ...(answerChanged ? { answer_enc: cipher.encrypt(input.answer) } : {}),
        updated_at: nowIso(),
      });
      // Whoever else holds a session of this account is signed out; this device stays in.
      await sessions.revokeAll('candidate', candidateId, sessionId);
      const fields = changed.map((f) => FIELD_LABEL[f]).join('、');
      await audit.record(
        { id: 0, officeId, name: '考生本人' },
        '修改个人信息',
        auditTarget('candidate', candidateId),
        `修改${fields}，其他登录已退出`,
        ip,
      );
      return { userInfo: await toUserInfo(await candidate(officeId, candidateId)), changed };
    },

    /** The hint answer itself, after the password: the one call that returns it. */
    async revealHintAnswer(call: CandidateCall, password: string): Promise<RevealedHintAnswer> {
      const { officeId, candidateId, sessionId, ip } = call;
      const row = await candidate(officeId, candidateId);
      await reauth.confirm(officeId, row, sessionId, password, ip, new AppError(ErrorCode.WrongPassword, '密码不正确'));
      return { answer: row.answer_enc ? cipher.decrypt(row.answer_enc) : '' };
    },

    async uploadPhoto(officeId: number, id: number, file: Buffer): Promise<UserInfo> {
      await candidate(officeId, id);
      const locked = await photoLock(officeId, id);
      if (locked) throw new AppError(ErrorCode.PhotoInvalid, locked);
      const photo = await processPhoto(file);
      await repo.replacePhoto(officeId, id, photo, nowIso());
      return toUserInfo(await candidate(officeId, id));
    },

    async changePassword(call: CandidateCall, input: ChangePasswordData): Promise<void> {
      const { officeId, candidateId, sessionId, ip } = call;
      const row = await candidate(officeId, candidateId);
      await reauth.confirm(officeId, row, sessionId, input.oldPassword, ip, new AppError(ErrorCode.WrongPassword));
      await repo.updatePassword(officeId, candidateId, await hashPassword(input.newPassword), nowIso());
      // Anyone else holding a session of this account is signed out; this device stays in.
      await sessions.revokeAll('candidate', candidateId, sessionId);
    },

    async getSecurityQuestion(
      officeId: number,
      input: { idno: string; captchaId: string; captcha: string },
      ip: string,
    ): Promise<{ question: string }> {
      const index = idnoIndex(input.idno);
      await resetGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha);
      const row = await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno));
      return { question: row && isSecurityQuestion(row.question) ? row.question : decoyQuestion(input.idno) };
    },

    async resetPassword(officeId: number, input: ResetData, ip: string): Promise<void> {
      const index = idnoIndex(input.idno);
      await resetGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha);
      const row = await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno));
      const matches = row !== undefined && cipher.decrypt(row.answer_enc).trim() === input.answer.trim();
      // With phone verification on, the code must have gone to the account's own phone. Which of
      // the three was wrong is not said: that would tell whether the ID number has an account.
      const phoneChecked = phoneCodes && (await phoneCodes.required(officeId));
      const codeOk =
        !phoneChecked ||
        (row !== undefined &&
          matches &&
          (await phoneCodes.verify(officeId, row.mobile, 'reset', input.smsCode).then(
            () => true,
            () => false,
          )));
      if (!row || !matches || !codeOk) {
        await resetGuard.fail(officeId, index, ip);
        throw new AppError(
          ErrorCode.ResetFailed,
          phoneChecked ? '身份证号码、提示答案或短信验证码不正确，无法重置密码' : ERROR_TEXT[ErrorCode.ResetFailed],
        );
      }
      await repo.updatePassword(officeId, row.id, await hashPassword(input.newPassword), nowIso());
      await sessions.revokeAll('candidate', row.id);
      await resetGuard.succeed(officeId, index, ip);
    },
  };
}
