import { auditTarget, DELETE_ACCOUNT_BLOCKED_TEXT, ErrorCode, fromHundredths, HINT_ANSWER_MASK, type MyData } from '@zhikaoyun/shared';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { DataCipher } from '../../../lib/crypto';
import { dataUrl } from '../../../lib/data-url';
import { parseJsonColumn } from '../../../lib/json';
import { DeletionBlocked, type PersonalDataRepository } from './personal-data-repository';
import type { AuditService } from '../../platform/audit/service';
import type { SessionsService } from '../sessions/service';
import type { Reauth } from './reauth';

export interface PersonalDataDeps {
  repo: PersonalDataRepository;
  cipher: DataCipher;
  reauth: Reauth;
  sessions: SessionsService;
  audit: AuditService;
}

/**
 * Data subject rights (PIPL art. 45 and 47): the candidate's own copy of everything we hold about
 * them, and the deletion of the account.
 */
export function createPersonalDataService({ repo, cipher, reauth, sessions, audit }: PersonalDataDeps) {
  return {
    async export(officeId: number, candidateId: number): Promise<MyData> {
      const c = await repo.candidate(officeId, candidateId);
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      const office = await repo.office(officeId);
      const photo = c.photo_id === null ? undefined : await repo.photo(officeId, c.photo_id);
      const apps = await repo.applications(officeId, candidateId);
      const ids = apps.map((a) => a.id);
      const now = nowIso();
      const [history, payments, waivers, tickets, scores, marks, reviews, messages, sessions] = await Promise.all([
        repo.history(ids),
        repo.payments(ids),
        repo.waivers(ids),
        repo.tickets(ids),
        repo.scores(ids, now),
        repo.marks(ids),
        repo.scoreReviews(ids),
        repo.messages(officeId, candidateId),
        repo.sessions(officeId, candidateId),
      ]);
      const of = <R extends { application_id: number }>(rows: R[], id: number) => rows.filter((r) => r.application_id === id);
      const points = (h: number | null) => (h === null ? null : fromHundredths(h));

      return {
        exportedAt: now,
        office: { code: office.code, name: office.name },
        account: {
          id: c.id,
          // Their own ID number, in full: this copy is for the candidate alone.
          idno: cipher.decrypt(c.idno_enc),
          name: c.name,
          mobile: c.mobile,
          email: c.email,
          question: c.question,
          // A session alone never yields the hint answer (it resets the password): the download
          // says one is set; the answer itself is shown after the password (revealHintAnswer).
          answer: c.answer_enc ? HINT_ANSWER_MASK : '',
          birthday: c.birthday,
          sex: c.sex === '男' || c.sex === '女' ? c.sex : '',
          consentAt: c.consent_at,
          createdAt: c.created_at,
          updatedAt: c.updated_at,
        },
        photo: photo ? dataUrl(photo.mime, photo.data) : '',
        applications: apps.map((a) => ({
          id: a.id,
          examId: a.exam_id,
          examName: a.exam_name,
          positionId: a.position_id,
          positionName: a.position_name ?? '',
          status: a.status,
          reason: a.reason,
          form: parseJsonColumn(z.record(z.string(), z.unknown()), a.form, {}),
          submittedAt: a.submitted_at,
          reviewedAt: a.reviewed_at,
          createdAt: a.created_at,
          updatedAt: a.updated_at,
          history: of(history, a.id).map((h) => ({ status: h.status, reason: h.reason, actor: h.actor, at: h.at })),
          payments: of(payments, a.id).map((o) => ({
            orderNo: o.order_no,
            amount: o.amount,
            status: o.status,
            createdAt: o.created_at,
            paidAt: o.paid_at,
            refundedAt: o.refunded_at,
          })),
          waivers: of(waivers, a.id).map((w) => ({
            category: w.category,
            status: w.status,
            reason: w.reason,
            proof: dataUrl(w.proof_mime, w.proof),
            createdAt: w.created_at,
            reviewedAt: w.reviewed_at,
          })),
          ticket: of(tickets, a.id).map((x) => ({ ticketNo: x.ticket_no, site: x.site, room: x.room, seat: x.seat }))[0] ?? null,
          score:
            of(scores, a.id).map((x) => ({
              status: x.status,
              total: points(x.total),
              bonus: fromHundredths(x.bonus),
              subjects: of(marks, a.id).map((m) => ({ name: m.name, mark: m.mark, score: points(m.score) })),
            }))[0] ?? null,
          scoreReviews: of(reviews, a.id).map((v) => ({
            subject: v.subject ?? '全部科目',
            reason: v.reason,
            status: v.status,
            answer: v.answer,
            createdAt: v.created_at,
            answeredAt: v.answered_at,
          })),
        })),
        messages: messages.map((m) => ({ title: m.title, content: m.content, createdAt: m.created_at, readAt: m.read_at })),
        sessions: sessions.map((s) => ({
          createdAt: s.created_at,
          lastSeenAt: s.last_seen_at,
          expiresAt: s.expires_at,
          revoked: s.revoked_at !== null,
        })),
      };
    },

    /**
     * Deletes the account and everything personal with it: photo, applications (drafts and
     * rejected ones) with their history and sessions. (Appeals are another person's data: the
     * appellant's, kept until staff resolve them.) What stays is one audit line without personal
     * data (which account number, when), so the office can answer for the deletion.
     */
    async deleteAccount(officeId: number, candidateId: number, sessionId: number, password: string, ip: string): Promise<void> {
      const c = await repo.candidate(officeId, candidateId);
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      await reauth.confirm(officeId, c, sessionId, password, ip, new AppError(ErrorCode.WrongPassword, '密码不正确，账号未注销'));
      try {
        await repo.deleteCandidate(officeId, candidateId, (trx, applications) =>
          audit.record(
            { id: 0, officeId, name: '考生本人' },
            '注销账号',
            auditTarget('candidate', candidateId),
            `删除报名 ${applications} 条及照片、登录会话`,
            ip,
            trx,
          ),
        );
      } catch (err) {
        if (err instanceof DeletionBlocked) throw new AppError(ErrorCode.Forbidden, DELETE_ACCOUNT_BLOCKED_TEXT);
        throw err;
      }
      sessions.deleted('candidate', candidateId);
    },
  };
}
