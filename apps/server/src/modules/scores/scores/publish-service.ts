import {
  AUDIENCE_RULES,
  DEFAULT_TIME_ZONE,
  ErrorCode,
  fromHundredths,
  maskName,
  zonedDateTime,
  type InterviewList,
  type MyScore,
} from '@zhikaoyun/shared';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import type { ExamRow } from '../../content/exams/lookup';
import { officeAdminScope } from '../../access/scope';
import { renderInterviewListPdf } from './interview-pdf';
import { createVersionedCache } from './my-score-cache';
import { byPositionOf, listed, needOf, points, type RuleRow } from './ranking';
import { NOT_PUBLISHED, reviewOf } from './review-service';
import type { ScoresDeps } from './service';

const LIST_NOT_PUBLISHED = '面试名单尚未公布，请留意考试公告';

/** Publishing: the candidate's own score, the public interview list and its PDF. */
export function createScorePublishService(deps: ScoresDeps) {
  const { repo, audit, changed, exams } = deps;
  const myScores = createVersionedCache<MyScore>(deps.version);
  const gates = createVersionedCache<{ exam: ExamRow; rule: RuleRow | undefined }>(deps.version);

  /** Per position with entrants: the list by the rules, best first, names masked. */
  async function listOf(officeId: number, examId: number, rule: RuleRow | undefined): Promise<InterviewList['positions']> {
    const [positions, rows] = await Promise.all([repo.positions(officeId, examId), repo.qualifiedRanked(officeId, examId)]);
    const byPosition = byPositionOf(rows);
    return positions
      .map((p) => {
        const need = needOf(rule, p);
        const list = (byPosition.get(p.id) ?? []).filter((r) => listed({ ...r, qualified: 1 }, need));
        return {
          positionId: p.id,
          positionCode: p.code,
          positionName: p.name,
          headcount: p.headcount,
          cutOff: list.length === 0 ? null : fromHundredths(list.reduce((m, r) => Math.min(m, r.total), Infinity)),
          list: list.map((r) => ({ ticketNo: r.ticket_no, name: maskName(r.name), total: fromHundredths(r.total), rank: r.rank })),
        };
      })
      .filter((p) => p.list.length > 0);
  }

  return {
    async publish(
      staff: StaffPrincipal,
      input: { examId: number; queryStart: string; reviewStart?: string | undefined; reviewEnd?: string | undefined },
      ip: string,
      timeZone: string = DEFAULT_TIME_ZONE,
    ): Promise<{ notified: number }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      if ((await repo.countScored(officeId, input.examId)) === 0) throw new AppError(ErrorCode.Validation, '尚未导入成绩，不能发布');
      const at = clock.nowIso();
      const notified = await repo.commit(async (trx) => {
        const rule = await repo.rule(officeId, input.examId, trx);
        const review = input.reviewStart && input.reviewEnd ? { start: input.reviewStart, end: input.reviewEnd } : null;
        await repo.publish(trx, input.examId, input.queryStart, at, review);
        let n = 0;
        // Told once, on the first publishing, with the query time; publishing again moves the
        // time, and those told the old one are told the new one.
        if (rule?.published_at && rule.query_start && rule.query_start !== input.queryStart) {
          const r = await deps.notifications.stepToAudience(trx, {
            officeId,
            examId: input.examId,
            audience: AUDIENCE_RULES.ticketed,
            kind: 'schedule_changed',
            detail: `成绩查询开始时间由 ${zonedDateTime(rule.query_start, timeZone)} 改为 ${zonedDateTime(input.queryStart, timeZone)}`,
            at,
          });
          n = r.recipients;
        }
        if (!rule?.published_at) {
          const r = await deps.notifications.stepToAudience(trx, {
            officeId,
            examId: input.examId,
            audience: AUDIENCE_RULES.ticketed,
            kind: 'scores_published',
            until: { to: input.queryStart },
            at,
          });
          n = r.recipients;
        }
        await audit.record(
          staff,
          '发布成绩',
          `exam:${input.examId}`,
          `查询开始 ${zonedDateTime(input.queryStart)}${
            review ? `；复核申请 ${zonedDateTime(review.start)} 至 ${zonedDateTime(review.end)}` : ''
          }${n > 0 ? `；通知 ${n} 人` : ''}`,
          ip,
          trx,
        );
        return n;
      });
      await changed(officeId);
      return { notified };
    },

    /**
     * The candidate's own score, from the query start on. Kept per candidate until the next
     * scores write (import, rules, publishing, 放弃, 递补) moves the office's version.
     */
    async mine(officeId: number, candidateId: number, examId: number, timeZone: string = DEFAULT_TIME_ZONE): Promise<MyScore> {
      // The gate is the same for every candidate of the exam: read once per data version.
      const { exam, rule } = await gates.get(officeId, String(examId), async () => ({
        exam: await exams.require(officeId, examId),
        rule: await repo.rule(officeId, examId),
      }));
      if (!rule?.published_at || !rule.query_start) throw new AppError(ErrorCode.Validation, NOT_PUBLISHED);
      if (clock.nowIso() < rule.query_start)
        throw new AppError(ErrorCode.Validation, `成绩查询将于 ${zonedDateTime(rule.query_start, timeZone)} 开放，请届时再来`);
      return myScores.get(officeId, `${examId}|${candidateId}`, async () => {
        const me = await repo.mine(officeId, examId, candidateId);
        if (!me) throw notFound('ownScore');
        const [marks, standing, reviews] = await Promise.all([
          repo.myMarks(me.application_id),
          repo.standing(officeId, examId, me.position_id, me.total),
          repo.reviews(officeId, { applicationId: me.application_id }),
        ]);
        const qualified = me.qualified === 1;
        return {
          examName: exam.name,
          ticketNo: me.ticket_no,
          positionName: me.position_name ?? '',
          subjects: marks.map((m) => ({ subjectId: m.subject_id, name: m.name, score: points(m.score), mark: m.mark })),
          review: {
            start: rule.review_start,
            end: rule.review_end,
            requests: reviews.map((r) => {
              const { ticketNo: _t, name: _n, positionName: _p, score: _s, ...mine } = reviewOf(r);
              return mine;
            }),
          },
          bonus: fromHundredths(me.bonus),
          total: points(me.total),
          rank: me.total === null ? null : standing.above + 1,
          ranked: standing.ranked,
          passLine: fromHundredths(rule.pass_line),
          qualified,
          nextStage:
            qualified &&
            me.gave_up_at === null &&
            (standing.qualifiedAbove < needOf(rule, { headcount: me.headcount ?? 0, cancelled_at: me.position_cancelled_at }) ||
              me.filled_at !== null),
        };
      });
    },

    /** The public list once the query start has come: per position, masked names, best first. */
    async interviewList(officeId: number, examId: number): Promise<InterviewList> {
      const exam = await repo.exam(officeId, examId);
      const rule = exam ? await repo.rule(officeId, examId) : undefined;
      if (!exam || !rule?.published_at || !rule.query_start || clock.nowIso() < rule.query_start)
        throw new AppError(ErrorCode.NotFound, LIST_NOT_PUBLISHED);
      // 公示时间 is when the list opened to the public: the query start, which the message names too.
      return { examName: exam.name, publishedAt: rule.query_start, positions: await listOf(officeId, examId, rule) };
    },

    /**
     * The interview list as a PDF to post (公示), masked names as on the public page; staff may
     * make it before publishing to check it. Audited like every export.
     */
    async exportInterviewListPdf(
      staff: StaffPrincipal,
      office: { name: string; timeZone: string },
      examId: number,
      ip: string,
    ): Promise<Uint8Array> {
      const { officeId } = officeAdminScope(staff);
      const exam = await exams.require(officeId, examId);
      if ((await repo.countScored(officeId, examId)) === 0) throw new AppError(ErrorCode.Validation, '尚未导入成绩，没有面试名单可导出');
      const positions = await listOf(officeId, examId, await repo.rule(officeId, examId));
      await audit.record(staff, '导出面试名单', `exam:${examId}`, `PDF，${positions.reduce((n, p) => n + p.list.length, 0)} 人`, ip);
      return renderInterviewListPdf({
        officeName: office.name,
        examName: exam.name,
        at: clock.nowIso(),
        timeZone: office.timeZone,
        positions: positions.map((p) => ({
          code: p.positionCode,
          name: p.positionName,
          headcount: p.headcount,
          cutOff: p.cutOff,
          list: p.list,
        })),
      });
    },
  };
}
