import {
  birthdayFromIdno,
  ERROR_TEXT,
  ErrorCode,
  sexFromIdno,
  type AuthResult,
  type ChangePasswordInput,
  type UpdateUserInfoInput,
  type UserInfo,
} from '@zhikaoyun/shared';
import type { z } from 'zod';
import type { changePasswordSchema, loginSchema, registerSchema, resetPasswordSchema, updateUserInfoSchema } from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import { dataUrl } from '../../lib/data-url';
import { failureGuard } from '../../lib/failure-guard';
import type { DataCipher } from '../../lib/crypto';
import { hashPassword, verifyPassword } from '../../lib/password';
import type { Throttle } from '../../lib/throttle';
import { nowIso } from '../../lib/time';
import type { CaptchaService } from '../captcha/service';
import type { SessionsService } from '../sessions/service';
import { processPhoto } from './photo';
import type { AccountsRepository, CandidateRow } from './repository';

type RegisterData = z.output<typeof registerSchema>;
type LoginData = z.output<typeof loginSchema>;
type ResetData = z.output<typeof resetPasswordSchema>;

/** Questions shown for an ID number with no account, so that the answer reveals nothing. */
const DECOY_QUESTIONS = [
  '我的小学校名？',
  '我母亲的姓名？',
  '我父亲的姓名？',
  '我的出生地？',
  '我最喜欢的老师？',
  '我的第一个宠物叫什么？',
];

export interface AccountsDeps {
  repo: AccountsRepository;
  cipher: DataCipher;
  captcha: CaptchaService;
  sessions: SessionsService;
  throttle: Throttle;
}

export function createAccountsService({ repo, cipher, captcha, sessions, throttle }: AccountsDeps) {
  const idnoIndex = (idno: string) => cipher.blindIndex('idno', idno);
  // Verifying against a real hash when the account does not exist keeps both answers equally slow.
  let decoyHash: Promise<string> | null = null;
  const decoy = () => (decoyHash ??= hashPassword('decoy-password-for-timing'));

  async function requireCaptcha(officeId: number, captchaId: string, code: string) {
    if (!(await captcha.verify(officeId, captchaId, code))) throw new AppError(ErrorCode.CaptchaInvalid);
  }

  const loginGuard = failureGuard(throttle, 'login', '登录');
  const registerGuard = failureGuard(throttle, 'register', '注册');
  const resetGuard = failureGuard(throttle, 'reset', '找回密码');

  async function toUserInfo(row: CandidateRow): Promise<UserInfo> {
    let photo = '';
    if (row.photo_id !== null) {
      const p = await repo.findPhoto(row.office_id, row.photo_id);
      if (p) photo = dataUrl(p.mime, p.data);
    }
    const idno = cipher.decrypt(row.idno_enc);
    return {
      id: row.id,
      idno,
      name: row.name,
      photo,
      mobile: row.mobile,
      email: row.email,
      question: row.question,
      answer: cipher.decrypt(row.answer_enc),
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
      if (await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno))) {
        await registerGuard.fail(officeId, index, ip);
        throw new AppError(ErrorCode.IdnoRegistered);
      }
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
      const token = await sessions.open('candidate', id, officeId);
      return { token, userInfo: await toUserInfo(await candidate(officeId, id)) };
    },

    async login(officeId: number, input: LoginData, ip: string): Promise<AuthResult> {
      const index = idnoIndex(input.idno);
      await loginGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha);
      const row = await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno));
      // A one-time password from staff (appeals) past its expiry fails like a wrong one.
      const ok = row
        ? (await verifyPassword(row.password_hash, input.password)) && !(row.password_expires_at && row.password_expires_at <= nowIso())
        : (await verifyPassword(await decoy(), input.password), false);
      if (!row || !ok) {
        await loginGuard.fail(officeId, index, ip);
        throw new AppError(ErrorCode.LoginFailed);
      }
      await loginGuard.reset(officeId, index);
      const token = await sessions.open('candidate', row.id, officeId);
      return { token, userInfo: await toUserInfo(row) };
    },

    logout(sessionId: number) {
      return sessions.revoke(sessionId);
    },

    async getUserInfo(officeId: number, id: number): Promise<UserInfo> {
      return toUserInfo(await candidate(officeId, id));
    },

    async updateUserInfo(
      officeId: number,
      id: number,
      input: z.output<typeof updateUserInfoSchema> & UpdateUserInfoInput,
    ): Promise<UserInfo> {
      await candidate(officeId, id);
      await repo.updateProfile(officeId, id, {
        mobile: input.mobile,
        email: input.email ?? '',
        question: input.question,
        answer_enc: cipher.encrypt(input.answer),
        updated_at: nowIso(),
      });
      return toUserInfo(await candidate(officeId, id));
    },

    async uploadPhoto(officeId: number, id: number, file: Buffer): Promise<UserInfo> {
      await candidate(officeId, id);
      const photo = await processPhoto(file);
      await repo.replacePhoto(officeId, id, photo, nowIso());
      return toUserInfo(await candidate(officeId, id));
    },

    async changePassword(
      officeId: number,
      id: number,
      sessionId: number,
      input: z.output<typeof changePasswordSchema> & ChangePasswordInput,
    ): Promise<void> {
      const row = await candidate(officeId, id);
      if (!(await verifyPassword(row.password_hash, input.oldPassword))) throw new AppError(ErrorCode.WrongPassword);
      await repo.updatePassword(officeId, id, await hashPassword(input.newPassword), nowIso());
      // Anyone else holding a session of this account is signed out; this device stays in.
      await sessions.revokeAll('candidate', id, sessionId);
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
      if (row) return { question: row.question };
      const pick = Number.parseInt(cipher.blindIndex('decoy', input.idno).slice(0, 8), 16) % DECOY_QUESTIONS.length;
      return { question: DECOY_QUESTIONS[pick]! };
    },

    async resetPassword(officeId: number, input: ResetData, ip: string): Promise<void> {
      const index = idnoIndex(input.idno);
      await resetGuard.check(officeId, index, ip);
      await requireCaptcha(officeId, input.captchaId, input.captcha);
      const row = await repo.findByIndex(officeId, cipher.blindIndexes('idno', input.idno));
      const matches = row !== undefined && cipher.decrypt(row.answer_enc).trim() === input.answer.trim();
      if (!row || !matches) {
        await resetGuard.fail(officeId, index, ip);
        throw new AppError(ErrorCode.ResetFailed, ERROR_TEXT[ErrorCode.ResetFailed]);
      }
      await repo.updatePassword(officeId, row.id, await hashPassword(input.newPassword), nowIso());
      await sessions.revokeAll('candidate', row.id);
      await resetGuard.reset(officeId, index);
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
