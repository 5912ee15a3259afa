import { createHash, randomBytes } from 'node:crypto';
import {
  auditTarget,
  ErrorCode,
  FACE_REQUIRED_TEXT,
  faceResultMessage,
  IDENTITY_MISMATCH_TEXT,
  REAL_NAME_FAILED_TEXT,
  realNameResultMessage,
  type Exam,
  type ExamConfig,
  type FaceStatus,
  type IdentityStatus,
  type RealNameStatus,
} from '@zhikaoyun/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { AppError } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import type { AuditService } from '../../platform/audit/service';
import type { FaceAnswer, IdentityProvider, RealNameAnswer } from './providers';
import type { IdentityCheckRow, IdentityRepository } from './repository';

/** The candidate's identity checks as staff see them beside an application. */
export interface IdentityChecks {
  realName: RealNameStatus;
  face: FaceStatus;
  faceAt: string | null;
}

export interface IdentityDeps {
  repo: IdentityRepository;
  /** Made once, on first use (a provider's SDK is loaded only when it is configured). */
  provider: () => Promise<IdentityProvider>;
  timeoutMs: number;
  cipher: DataCipher;
  audit: AuditService;
  findCandidate: (officeId: number, id: number) => Promise<{ idno_enc: string; name: string } | undefined>;
  findExam: (officeId: number, examId: number) => Promise<{ registration_start: string; registration_end: string; config: ExamConfig }>;
  /** Writes an inbox message in `trx` (the notifications service's `notify`). */
  message: (trx: Kysely<DB>, m: { officeId: number; candidateId: number; title: string; content: string; at: string }) => Promise<void>;
  log: FastifyBaseLogger;
}

/** 1, 2, 4 … minutes after the `attempts`th try, at most `capMs`. */
const backoffMs = (attempts: number, capMs: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), capMs);

/** Background retries of a pending real-name check: 1, 2, 4 … minutes, at most 6 hours apart. */
export const retryDelayMs = (attempts: number) => backoffMs(attempts, 6 * 3600_000);

/**
 * How long a face check may still end after it began: Tencent's BizToken lives 2 hours, Aliyun's
 * CertifyUrl 30 minutes. After it, nobody asks the provider about it again; it stays pending and
 * the candidate starts a new one.
 */
export const FACE_OPEN_MS = 2 * 3600_000;

/** Background queries of an open face check: 1, 2, 4 … minutes, at most 10 minutes apart. */
const faceQueryDelayMs = (attempts: number) => backoffMs(attempts, 10 * 60_000);

const faceOpen = (row: IdentityCheckRow, now = Date.now()) => now - Date.parse(row.created_at) < FACE_OPEN_MS;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

class Timeout extends Error {}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 200);

/** Where the candidate lands after a face check: the page the submit is on. */
export const FACE_RETURN_PATH = '/confirm-info';
/** Our page that lets a provider's web SDK describe the browser before the check starts (Aliyun). */
export const FACE_START_PATH = '/api/identity/face-start';
/** Where a provider's server tells ours that a check ended (Aliyun's CallbackUrl). */
export const FACE_NOTIFY_PATH = '/api/identity/notify';
const FACE_UNAVAILABLE = '人脸核验服务暂时不可用，请稍后再试';
const USED_LINK = '该核验链接已使用，请返回报名系统查看核验结果，或重新发起人脸核验';
const INVALID_LINK = '核验链接无效或已过期，请返回报名系统重新发起人脸核验';

/**
 * The real-name check (二要素) at registration and in the background, the face check an exam asks
 * for, and what both mean for a submit (issue 33, decision 034).
 */
export function createIdentityService(deps: IdentityDeps) {
  const { repo, log } = deps;

  /** The provider's answer within the time limit, or null: no answer (down, slow, its own fault). */
  async function ask(idno: string, name: string): Promise<RealNameAnswer | null> {
    try {
      return await within(
        deps.provider().then((p) => p.checkRealName(idno, name)),
        deps.timeoutMs,
      );
    } catch (err) {
      log.warn({ identity: { reason: reasonOf(err) } }, 'real-name check: no answer, kept pending');
      return null;
    }
  }

  /** An answer that arrived in the background: written, and told in 我的消息. */
  async function settleInBackground(row: IdentityCheckRow, status: 'passed' | 'failed', at: string): Promise<void> {
    await repo.commit(async (trx) => {
      if (!(await repo.settle(row.id, status, status === 'failed' ? 'mismatch' : '', at, trx))) return;
      await deps.message(trx, { officeId: row.office_id, candidateId: row.candidate_id, ...realNameResultMessage(status), at });
    });
  }

  /**
   * A face check's end, written once. `tell`: the candidate is not on our page (the provider's
   * notify, the background query) and learns it in 我的消息.
   */
  async function settleFace(row: IdentityCheckRow, answer: 'passed' | 'failed', tell: boolean): Promise<IdentityCheckRow> {
    const at = nowIso();
    await repo.commit(async (trx) => {
      if (!(await repo.settle(row.id, answer, answer === 'failed' ? 'face' : '', at, trx))) return;
      if (tell) await deps.message(trx, { officeId: row.office_id, candidateId: row.candidate_id, ...faceResultMessage(answer), at });
    });
    return { ...row, status: answer, checked_at: at };
  }

  /** The provider's word on an open face check; 'pending' when it has none yet or cannot be asked. */
  async function queryFace(row: IdentityCheckRow): Promise<FaceAnswer> {
    if (row.provider_ref === null || !faceOpen(row)) return 'pending';
    return deps
      .provider()
      .then((p) => (p.name === row.provider ? within(p.queryFace(row.provider_ref!), deps.timeoutMs) : ('pending' as const)))
      .catch((err: unknown) => {
        log.warn({ identity: { reason: reasonOf(err) } }, 'face check query failed');
        return 'pending' as const;
      });
  }

  async function faceOf(officeId: number, candidateId: number): Promise<IdentityCheckRow | undefined> {
    const row = await repo.latest(officeId, candidateId, 'face');
    if (row?.status !== 'pending') return row;
    // The candidate came back without the provider's redirect (closed the page, another device):
    // ask the provider now.
    const answer = await queryFace(row);
    return answer === 'pending' ? row : settleFace(row, answer, false);
  }

  /** The sweep's part for a face check: asked about until it ends or its time runs out. */
  async function sweepFace(row: IdentityCheckRow): Promise<'settled' | 'postponed'> {
    const answer = await queryFace(row);
    if (answer !== 'pending') {
      await settleFace(row, answer, true);
      return 'settled';
    }
    const attempts = row.attempts + 1;
    const next = Date.now() + faceQueryDelayMs(attempts);
    const open = faceOpen(row, next);
    await repo.postpone(row.id, attempts, open ? new Date(next).toISOString() : null, open ? 'no answer yet' : 'expired');
    return 'postponed';
  }

  /** The first background query of a face check that began at the provider. */
  const firstQueryAt = (provider: string) =>
    // The sandbox's result arrives only through its page: nothing to ask it.
    provider === 'sandbox' ? null : new Date(Date.now() + faceQueryDelayMs(1)).toISOString();

  /** The check begins at the provider; its failure is the candidate's plain "try later". */
  async function begin(
    provider: IdentityProvider,
    token: string,
    c: { idno_enc: string; name: string },
    origin: string,
    orderNo: string,
    metaInfo: string | null,
  ) {
    try {
      return await provider.startFace({
        idno: deps.cipher.decrypt(c.idno_enc),
        name: c.name,
        token,
        returnUrl: `${origin}/api/identity/callback?token=${encodeURIComponent(token)}`,
        notifyUrl: `${origin}${FACE_NOTIFY_PATH}`,
        orderNo,
        metaInfo,
      });
    } catch (err) {
      log.warn({ identity: { reason: reasonOf(err) } }, 'face check could not start');
      throw new AppError(ErrorCode.Internal, FACE_UNAVAILABLE);
    }
  }

  return {
    /**
     * Before an account is written: a mismatch is refused (no account); no answer within the time
     * limit lets the registration go on with the check pending.
     */
    async precheck(idno: string, name: string): Promise<'passed' | 'pending'> {
      const answer = await ask(idno, name);
      if (answer === 'mismatch') throw new AppError(ErrorCode.Validation, IDENTITY_MISMATCH_TEXT);
      return answer === 'match' ? 'passed' : 'pending';
    },

    /** The check's row of a new account (written right after the account). */
    async recordRegistration(officeId: number, candidateId: number, status: 'passed' | 'pending'): Promise<void> {
      const now = nowIso();
      const provider = await deps.provider().then(
        (p) => p.name,
        () => 'unavailable',
      );
      await repo.insert({
        office_id: officeId,
        candidate_id: candidateId,
        kind: 'real_name',
        status,
        exam_id: null,
        provider,
        provider_ref: null,
        token_hash: null,
        attempts: status === 'pending' ? 1 : 0,
        next_at: status === 'pending' ? new Date(Date.parse(now) + retryDelayMs(1)).toISOString() : null,
        created_at: now,
        checked_at: status === 'passed' ? now : null,
      });
    },

    /**
     * The sweeper's part: pending real-name checks asked again, open face checks asked about; each
     * answer told to its candidate.
     */
    async retryPending(limit = 50): Promise<{ settled: number; postponed: number }> {
      let settled = 0;
      let postponed = 0;
      for (const row of await repo.due(nowIso(), limit)) {
        if (row.kind === 'face') {
          if ((await sweepFace(row)) === 'settled') settled += 1;
          else postponed += 1;
          continue;
        }
        const c = await deps.findCandidate(row.office_id, row.candidate_id);
        if (!c) continue;
        const idno = deps.cipher.decrypt(c.idno_enc);
        if (idno === '') {
          // Anonymised by retention while pending: nothing left to check, nobody to tell.
          await repo.settle(row.id, 'failed', 'anonymised', nowIso());
          continue;
        }
        const answer = await ask(idno, c.name);
        if (answer === null) {
          const attempts = row.attempts + 1;
          await repo.postpone(row.id, attempts, new Date(Date.now() + retryDelayMs(attempts)).toISOString(), 'no answer');
          postponed += 1;
          continue;
        }
        await settleInBackground(row, answer === 'match' ? 'passed' : 'failed', nowIso());
        settled += 1;
      }
      return { settled, postponed };
    },

    /** `getIdentityStatus`: an account of before the checks has none and reads as pending. */
    async status(officeId: number, candidateId: number): Promise<IdentityStatus> {
      const [real, face] = await Promise.all([repo.latest(officeId, candidateId, 'real_name'), faceOf(officeId, candidateId)]);
      return {
        realName: real?.status ?? 'pending',
        face: face?.status ?? 'none',
        faceAt: face ? (face.checked_at ?? face.created_at) : null,
      };
    },

    /** Many candidates' checks at once, for staff lists: latest row of each kind per candidate. */
    async checksOf(officeId: number, candidateIds: readonly number[]): Promise<Map<number, IdentityChecks>> {
      const out = new Map<number, IdentityChecks>();
      for (const id of candidateIds) out.set(id, { realName: 'pending', face: 'none', faceAt: null });
      // Rows come oldest first: the last of each kind wins.
      for (const r of await repo.statuses(officeId, candidateIds)) {
        const c = out.get(r.candidate_id)!;
        if (r.kind === 'real_name') c.realName = r.status;
        else {
          c.face = r.status;
          c.faceAt = r.checked_at ?? r.created_at;
        }
      }
      return out;
    },

    /**
     * A failed check's way out: the name corrected on the account and checked again at once. A
     * mismatch again changes nothing; no answer keeps the new name with the check pending.
     */
    async correctName(officeId: number, candidateId: number, name: string, ip: string): Promise<IdentityStatus> {
      const real = await repo.latest(officeId, candidateId, 'real_name');
      if (real?.status !== 'failed') throw new AppError(ErrorCode.Validation, '只有实名核验未通过时才能在此更正姓名');
      const c = await deps.findCandidate(officeId, candidateId);
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      const status = await this.precheck(deps.cipher.decrypt(c.idno_enc), name);
      const now = nowIso();
      await repo.commit(async (trx) => {
        await repo.rename(officeId, candidateId, name, now, trx);
        await repo.insert(
          {
            office_id: officeId,
            candidate_id: candidateId,
            kind: 'real_name',
            status,
            exam_id: null,
            provider: (await deps.provider()).name,
            provider_ref: null,
            token_hash: null,
            attempts: status === 'pending' ? 1 : 0,
            next_at: status === 'pending' ? new Date(Date.parse(now) + retryDelayMs(1)).toISOString() : null,
            created_at: now,
            checked_at: status === 'passed' ? now : null,
          },
          trx,
        );
        await deps.audit.record(
          { id: 0, officeId, name: '考生本人' },
          '修改个人信息',
          auditTarget('candidate', candidateId),
          `更正姓名并重新实名核验：${status === 'passed' ? '通过' : '核验中'}`,
          ip,
          trx,
        );
      });
      return this.status(officeId, candidateId);
    },

    /**
     * `startFaceVerify`: a face check begins at the provider and the candidate opens its page; or,
     * for a provider whose web SDK must describe the browser first, our start page that does so.
     */
    async startFace(officeId: number, candidateId: number, examId: number, origin: string): Promise<{ url: string }> {
      const exam = await deps.findExam(officeId, examId);
      if (!exam.config.faceVerify) throw new AppError(ErrorCode.Validation, '本考试无需人脸核验');
      const c = await deps.findCandidate(officeId, candidateId);
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      const provider = await deps.provider();
      const token = randomBytes(24).toString('base64url');
      const row = {
        office_id: officeId,
        candidate_id: candidateId,
        kind: 'face' as const,
        status: 'pending' as const,
        exam_id: examId,
        provider: provider.name,
        token_hash: hashToken(token),
        created_at: nowIso(),
        checked_at: null,
      };
      if (provider.webSdkUrl !== null) {
        await repo.insert({ ...row, provider_ref: null, next_at: null });
        return { url: `${FACE_START_PATH}?token=${encodeURIComponent(token)}` };
      }
      const started = await begin(provider, token, c, origin, `face-${officeId}-${candidateId}-${Date.now()}`, null);
      await repo.insert({ ...row, provider_ref: started.ref, next_at: firstQueryAt(provider.name) });
      return { url: started.url };
    },

    /** The start page's second step: the browser described itself (`metaInfo`); the check begins at the provider. */
    async launchFace(token: string, metaInfo: string, origin: string): Promise<string> {
      const row = await repo.byToken(hashToken(token));
      if (row?.kind !== 'face' || row.status !== 'pending' || !faceOpen(row)) throw new AppError(ErrorCode.Validation, INVALID_LINK);
      if (row.provider_ref !== null) throw new AppError(ErrorCode.Validation, USED_LINK);
      const c = await deps.findCandidate(row.office_id, row.candidate_id);
      if (!c) throw new AppError(ErrorCode.Validation, INVALID_LINK);
      const provider = await deps.provider();
      const started = await begin(provider, token, c, origin, `face-${row.office_id}-${row.candidate_id}-${row.id}`, metaInfo);
      // A second start of one link (a reload) loses to the first: its check is the one asked about.
      if (!(await repo.started(row.id, started.ref, firstQueryAt(provider.name) ?? nowIso())))
        throw new AppError(ErrorCode.Validation, USED_LINK);
      return started.url;
    },

    /**
     * The provider's server says a check ended (Aliyun's CallbackUrl with our CallbackToken). Its
     * word is not taken: the provider is asked, as for a return. False: no such open check.
     */
    async notify(token: string, ref: string | null): Promise<boolean> {
      const row = await repo.byToken(hashToken(token));
      if (row?.kind !== 'face' || (ref !== null && row.provider_ref !== ref)) return false;
      if (row.status !== 'pending') return true;
      const answer = await queryFace(row);
      if (answer !== 'pending') await settleFace(row, answer, true);
      return true;
    },

    /** The face check a return link's token names (the sandbox's page, the provider's redirect). */
    async byToken(token: string): Promise<IdentityCheckRow | undefined> {
      return repo.byToken(hashToken(token));
    },

    /** The sandbox page's buttons: the result, as a provider's callback brings it. */
    async sandboxComplete(token: string, passed: boolean): Promise<void> {
      const row = await repo.byToken(hashToken(token));
      if (row?.provider !== 'sandbox' || row.kind !== 'face') throw new AppError(ErrorCode.Validation, '核验链接无效或已过期');
      await repo.settle(row.id, passed ? 'passed' : 'failed', passed ? '' : 'face', nowIso());
    },

    /** The provider sent the candidate back: its result is asked for at once (it may still be pending). */
    async callback(token: string): Promise<void> {
      const row = await repo.byToken(hashToken(token));
      if (row) await faceOf(row.office_id, row.candidate_id);
    },

    /** What a submit needs of identity: no failed real-name check; a passed face check when the exam asks. */
    async submitGate(
      officeId: number,
      candidateId: number,
      exam: Pick<Exam, 'config' | 'registrationStart' | 'registrationEnd'>,
    ): Promise<void> {
      const real = await repo.latest(officeId, candidateId, 'real_name');
      if (real?.status === 'failed') throw new AppError(ErrorCode.Validation, REAL_NAME_FAILED_TEXT);
      if (!exam.config.faceVerify) return;
      await faceOf(officeId, candidateId);
      if (!(await repo.facePassedBetween(officeId, candidateId, exam.registrationStart, exam.registrationEnd)))
        throw new AppError(ErrorCode.Validation, FACE_REQUIRED_TEXT);
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;
