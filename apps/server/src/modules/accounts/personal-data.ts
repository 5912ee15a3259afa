import { DELETE_ACCOUNT_BLOCKED_TEXT, ErrorCode, type MyData } from '@zhikaoyun/shared';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../lib/app-error';
import type { DataCipher } from '../../lib/crypto';
import { dataUrl } from '../../lib/data-url';
import { parseJsonColumn } from '../../lib/json';
import { verifyPassword } from '../../lib/password';
import { nowIso } from '../../lib/time';

/** Applications in these states are the office's record of an exam in progress: no deletion then. */
const BLOCKING_STATUSES = ['submitted', 'approved'];

/**
 * Data subject rights (PIPL art. 45 and 47): the candidate's own copy of everything we hold about
 * them, and the deletion of the account. Each query names the office and the candidate, so no
 * call can reach another person's rows.
 */
export function createPersonalDataService(db: Db, cipher: DataCipher) {
  const k = db.kysely;

  return {
    async export(officeId: number, candidateId: number): Promise<MyData> {
      const c = await k
        .selectFrom('candidate')
        .selectAll()
        .where('office_id', '=', officeId)
        .where('id', '=', candidateId)
        .executeTakeFirst();
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      const office = await k.selectFrom('office').select(['code', 'name']).where('id', '=', officeId).executeTakeFirstOrThrow();
      const photo =
        c.photo_id === null
          ? undefined
          : await k
              .selectFrom('photo')
              .select(['mime', 'data'])
              .where('office_id', '=', officeId)
              .where('id', '=', c.photo_id)
              .executeTakeFirst();
      const apps = await k
        .selectFrom('application as a')
        .innerJoin('exam as e', 'e.id', 'a.exam_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select([
          'a.id',
          'a.exam_id',
          'e.name as exam_name',
          'a.position_id',
          'p.name as position_name',
          'a.status',
          'a.reason',
          'a.form',
          'a.submitted_at',
          'a.reviewed_at',
          'a.created_at',
          'a.updated_at',
        ])
        .where('a.office_id', '=', officeId)
        .where('a.candidate_id', '=', candidateId)
        .orderBy('a.id')
        .execute();
      const history = apps.length
        ? await k
            .selectFrom('application_history')
            .select(['application_id', 'status', 'reason', 'actor', 'at'])
            .where(
              'application_id',
              'in',
              apps.map((a) => a.id),
            )
            .orderBy('id')
            .execute()
        : [];
      const sessions = await k
        .selectFrom('session')
        .select(['created_at', 'last_seen_at', 'expires_at', 'revoked_at'])
        .where('kind', '=', 'candidate')
        .where('office_id', '=', officeId)
        .where('subject_id', '=', candidateId)
        .orderBy('id')
        .execute();

      return {
        exportedAt: nowIso(),
        office: { code: office.code, name: office.name },
        account: {
          id: c.id,
          // Their own ID number, in full: this copy is for the candidate alone.
          idno: cipher.decrypt(c.idno_enc),
          name: c.name,
          mobile: c.mobile,
          email: c.email,
          question: c.question,
          answer: cipher.decrypt(c.answer_enc),
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
          history: history
            .filter((h) => h.application_id === a.id)
            .map((h) => ({ status: h.status, reason: h.reason, actor: h.actor, at: h.at })),
        })),
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
     * appellant's, kept until staff resolve them.) What stays is one audit line without personal data (which account number, when), so the office
     * can answer for the deletion.
     */
    async deleteAccount(officeId: number, candidateId: number, password: string, ip: string): Promise<void> {
      const c = await k
        .selectFrom('candidate')
        .select(['id', 'password_hash', 'idno_index'])
        .where('office_id', '=', officeId)
        .where('id', '=', candidateId)
        .executeTakeFirst();
      if (!c) throw new AppError(ErrorCode.Unauthorized);
      if (!(await verifyPassword(c.password_hash, password))) {
        throw new AppError(ErrorCode.WrongPassword, '密码不正确，账号未注销');
      }
      await k.transaction().execute(async (trx) => {
        // Checked inside the transaction, so a submit racing the deletion cannot slip between.
        const blocking = await trx
          .selectFrom('application')
          .select('id')
          .where('office_id', '=', officeId)
          .where('candidate_id', '=', candidateId)
          .where('status', 'in', BLOCKING_STATUSES)
          .executeTakeFirst();
        if (blocking) throw new AppError(ErrorCode.Forbidden, DELETE_ACCOUNT_BLOCKED_TEXT);
        const appIds = (
          await trx
            .selectFrom('application')
            .select('id')
            .where('office_id', '=', officeId)
            .where('candidate_id', '=', candidateId)
            .execute()
        ).map((a) => a.id);
        if (appIds.length) {
          await trx.deleteFrom('application_history').where('application_id', 'in', appIds).execute();
          await trx.deleteFrom('application').where('id', 'in', appIds).execute();
        }
        await trx.deleteFrom('session').where('kind', '=', 'candidate').where('subject_id', '=', candidateId).execute();
        await trx.updateTable('candidate').set({ photo_id: null }).where('id', '=', candidateId).execute();
        await trx.deleteFrom('photo').where('office_id', '=', officeId).where('candidate_id', '=', candidateId).execute();
        await trx.deleteFrom('candidate').where('office_id', '=', officeId).where('id', '=', candidateId).execute();
        await trx
          .insertInto('audit_log')
          .values({
            office_id: officeId,
            staff_id: 0,
            staff_name: '考生本人',
            action: 'candidate.deleteAccount',
            target: `candidate#${candidateId}`,
            detail: `注销账号，删除报名 ${appIds.length} 条及照片、登录会话`,
            ip,
            at: nowIso(),
          })
          .execute();
      });
    },
  };
}
export type PersonalDataService = ReturnType<typeof createPersonalDataService>;
