import {
  DEFAULT_TIME_ZONE,
  ErrorCode,
  WHOLE_SCORE_TEXT,
  formatPoints,
  toHundredths,
  zonedDateTime,
  type ScoreReview,
} from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { points } from './ranking';
import type { ScoresRepository } from './repository';
import type { ScoresDeps } from './service';

export const NOT_PUBLISHED = '成绩尚未发布，请留意考试公告';
type ReviewRow = Awaited<ReturnType<ScoresRepository['reviews']>>[number];

export function reviewOf(r: ReviewRow): ScoreReview {
  return {
    id: r.id,
    ticketNo: r.ticket_no,
    name: r.name,
    positionName: r.position_name ?? '',
    subjectId: r.subject_id === 0 ? null : r.subject_id,
    subjectName: r.subject_id === 0 ? WHOLE_SCORE_TEXT : (r.subject_name ?? ''),
    reason: r.reason,
    status: r.status,
    score: r.subject_id === 0 ? points(r.total) : points(r.score),
    oldScore: points(r.old_score),
    newScore: points(r.new_score),
    answer: r.answer,
    createdAt: r.created_at,
    answeredAt: r.answered_at,
  };
}

/** 成绩复核: the candidate's request inside the window set at publishing, the office's answer. */
export function createScoreReviewService(deps: ScoresDeps) {
  const { repo, audit, changed, exams } = deps;
  return {
    /**
     * 成绩复核: a candidate with a score asks, inside the window set at publishing, once per
     * subject (or once for the scores as a whole).
     */
    async requestReview(
      officeId: number,
      candidateId: number,
      input: { examId: number; subjectId?: number | undefined; reason: string },
      timeZone: string = DEFAULT_TIME_ZONE,
    ): Promise<void> {
      await exams.require(officeId, input.examId);
      const rule = await repo.rule(officeId, input.examId);
      const now = clock.nowIso();
      if (!rule?.published_at || !rule.query_start || now < rule.query_start) throw new AppError(ErrorCode.Validation, NOT_PUBLISHED);
      if (!rule.review_start || !rule.review_end) throw new AppError(ErrorCode.Validation, '本次考试未开放成绩复核申请');
      if (now < rule.review_start)
        throw new AppError(ErrorCode.Validation, `成绩复核申请将于 ${zonedDateTime(rule.review_start, timeZone)} 开始，请届时再来`);
      if (now >= rule.review_end)
        throw new AppError(ErrorCode.Validation, `成绩复核申请已于 ${zonedDateTime(rule.review_end, timeZone)} 截止`);
      const me = await repo.mine(officeId, input.examId, candidateId);
      if (!me) throw notFound('ownScore');
      if (input.subjectId !== undefined && !(await repo.myMarks(me.application_id)).some((m) => m.subject_id === input.subjectId))
        throw new AppError(ErrorCode.Validation, '该科目不属于您的考试科目，请刷新后再试');
      const added = await repo.commit((trx) =>
        repo.addReview(trx, {
          officeId,
          examId: input.examId,
          applicationId: me.application_id,
          subjectId: input.subjectId ?? 0,
          reason: input.reason,
          at: now,
        }),
      );
      if (!added)
        throw new AppError(
          ErrorCode.Validation,
          input.subjectId === undefined ? '您已申请过成绩复核，请勿重复提交' : '您已申请过该科目的成绩复核，请勿重复提交',
        );
      // The candidate's cached answer shows the request on the next read.
      await changed(officeId);
    },

    async reviewList(staff: StaffPrincipal, examId: number, status: 'pending' | 'answered' | undefined): Promise<ScoreReview[]> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      return (await repo.reviews(officeId, { examId, status })).map(reviewOf);
    },

    /**
     * Answers a request: unchanged, or corrected, which changes the subject's score and the
     * totals (ranks follow from them) in the same transaction as the answer, the candidate's
     * message and the audit entry.
     */
    async answerReview(
      staff: StaffPrincipal,
      input: {
        reviewId: number;
        result: 'unchanged' | 'corrected';
        subjectId?: number | undefined;
        newScore?: number | undefined;
        answer: string;
      },
      ip: string,
    ): Promise<void> {
      const { officeId } = officeAdminScope(staff);
      const [row] = await repo.reviews(officeId, { id: input.reviewId });
      if (!row) throw notFound('scoreReview');
      if (row.status !== 'pending') throw new AppError(ErrorCode.Validation, '该复核申请已答复，请刷新后查看');
      const exam = await exams.require(officeId, row.exam_id);
      let correction: { subjectId: number; name: string; old: number | null; next: number } | null = null;
      if (input.result === 'corrected') {
        const subjectId = row.subject_id === 0 ? input.subjectId : row.subject_id;
        if (subjectId === undefined) throw new AppError(ErrorCode.Validation, '请选择更正的科目');
        const subject = (await repo.subjects(officeId, row.exam_id)).find((s) => s.id === subjectId);
        if (!subject) throw new AppError(ErrorCode.Validation, '科目不属于该考试，请刷新后再试');
        const mark = (await repo.myMarks(row.application_id)).find((m) => m.subject_id === subjectId);
        if (!mark || mark.mark !== 'score') throw new AppError(ErrorCode.Validation, '该科目为缺考或违纪，不能更正分数');
        const next = toHundredths(input.newScore ?? 0);
        if (next > Number(subject.full_marks)) throw new AppError(ErrorCode.Validation, '更正后的分数不能高于该科满分');
        if (next === mark.score) throw new AppError(ErrorCode.Validation, '更正后的分数与原分数相同，请选择“复核无误”');
        correction = { subjectId, name: subject.name, old: mark.score, next };
      }
      const at = clock.nowIso();
      const detail = correction
        ? `${correction.name}成绩由 ${formatPoints(points(correction.old))} 分更正为 ${formatPoints(points(correction.next))} 分`
        : `${row.subject_id === 0 ? WHOLE_SCORE_TEXT : (row.subject_name ?? '')}复核无误`;
      await repo.commit(async (trx) => {
        const answered = await repo.answerReview(trx, {
          id: row.id,
          status: input.result,
          subjectId: correction?.subjectId ?? row.subject_id,
          oldScore: correction?.old ?? null,
          newScore: correction?.next ?? null,
          answer: input.answer,
          staffId: staff.id,
          at,
        });
        // Answered by someone else meanwhile: nothing of this answer is written.
        if (!answered) throw new AppError(ErrorCode.Validation, '该复核申请已答复，请刷新后查看');
        if (correction) {
          await repo.setMarkScore(trx, row.application_id, correction.subjectId, correction.next, at);
          await repo.recompute(trx, officeId, row.exam_id);
        }
        await deps.notifications.notify(trx, {
          officeId,
          candidateId: row.candidate_id,
          kind: 'score_review_answered',
          applicationId: row.application_id,
          examId: row.exam_id,
          params: { exam: exam.name, detail },
          mobile: '',
          smsWanted: false,
          at,
        });
        await audit.record(staff, '答复成绩复核', `exam:${row.exam_id}`, `${row.ticket_no}：${detail}`, ip, trx);
      });
      await changed(officeId);
    },
  };
}
