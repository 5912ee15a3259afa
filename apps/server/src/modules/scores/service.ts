import {
  AUDIENCE_RULES,
  DEFAULT_TIME_ZONE,
  ErrorCode,
  fromHundredths,
  fromThousandths,
  maskName,
  toHundredths,
  toThousandths,
  zonedDateTime,
  type InterviewList,
  type MyScore,
  type ScoreImportResult,
  type ScoreRanking,
  type ScoreReview,
  type ScoreRules,
  WHOLE_SCORE_TEXT,
  formatPoints,
  type saveScoreRulesSchema,
} from '@zhikaoyun/shared';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { AppError, notFound } from '../../lib/app-error';
import { clock } from '../../lib/clock';
import type { OfficeLock } from '../../lib/office-lock';
import type { StaffPrincipal } from '../../plugins/auth';
import type { AuditService } from '../audit/service';
import type { ExamLookup, ExamRow } from '../exams/lookup';
import type { NotificationsService } from '../notifications/service';
import { officeAdminScope } from '../review/scope';
import { renderInterviewListPdf } from './interview-pdf';
import { createVersionedCache } from './my-score-cache';
import type { HeavyTasks } from '../../heavy-tasks';
import { byPositionOf, listed, needOf, points, ratioTable, type RuleRow } from './ranking';
import type { RankedRow, ScoresRepository } from './repository';
import { markRows, totalRows } from './score-rows';
import type { RankingExportJob } from './ranking-sheet';
import { packSubjects, packTickets } from './sheet';
import { BONUS_COLUMN } from './columns';
import { templateFile } from './template';

export interface ScoresDeps {
  repo: ScoresRepository;
  audit: AuditService;
  exams: ExamLookup;
  /** Scores published: every ticket holder's message, written with the publishing. */
  notifications: Pick<NotificationsService, 'stepToAudience' | 'stepToApplication' | 'notify'>;
  /** One Excel import per office at a time (shared with the position import). */
  importLock: OfficeLock;
  /** After each committed change: the public interview list shows it on its next read. */
  changed: (officeId: number) => Promise<void>;
  /** The office's data version `changed` moves (null: unknown now), which keeps candidates' answers fresh. */
  version: (officeId: number) => Promise<string | null>;
  /** Off the event loop (a worker thread, decision 014): the sheet read with its totals, the ranking. */
  heavy: Pick<HeavyTasks, 'readScores' | 'rank'>;
  /** The ranking's workbook, written by an export worker (decision 016); `failed`: the office's words if it cannot start. */
  exportFile: (job: Omit<RankingExportJob, 'kind'>, failed: string) => Promise<Readable>;
}

type SaveRulesInput = z.output<typeof saveScoreRulesSchema>;

const NOT_PUBLISHED = '成绩尚未发布，请留意考试公告';
const LIST_NOT_PUBLISHED = '面试名单尚未公布，请留意考试公告';
type ReviewRow = Awaited<ReturnType<ScoresRepository['reviews']>>[number];

function reviewOf(r: ReviewRow): ScoreReview {
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

/**
 * Written-exam scores: the rules, the import (all rows or none), the ranking per position and the
 * interview list, publishing, the candidate's own score and the public list. Totals, pass flags
 * and ranks are computed in the database (see the repository); the list follows the shared rule:
 * the qualified by total until headcount × ratio places are filled, ties at the cut-off included.
 */
export function createScoresService(deps: ScoresDeps) {
  const { repo, audit, changed, importLock, exams } = deps;
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
    /**
     * The interview list's entrants with their full names and written totals (hundredths), and
     * the exam's positions: where the later stages (./stages) start. Staff only.
     */
    async entrants(officeId: number, examId: number) {
      const rule = await repo.rule(officeId, examId);
      const [positions, rows] = await Promise.all([repo.positions(officeId, examId), repo.qualifiedRanked(officeId, examId)]);
      const need = new Map(positions.map((p) => [p.id, needOf(rule, p)]));
      const entrants = rows
        .map((r) => ({ ...r, total: Number(r.total), qrank: Number(r.qrank) }))
        .filter((r) => listed({ ...r, qualified: 1 }, need.get(r.position_id) ?? 0));
      return { positions, entrants };
    },

    async rules(staff: StaffPrincipal, examId: number): Promise<ScoreRules> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const [rule, subjects, imported] = await Promise.all([
        repo.rule(officeId, examId),
        repo.subjects(officeId, examId),
        repo.countScored(officeId, examId),
      ]);
      const table = ratioTable(rule);
      return {
        examId,
        subjects: subjects.map((s) => ({
          subjectId: s.id,
          name: s.name,
          fullMarks: fromHundredths(Number(s.full_marks)),
          weight: fromThousandths(Number(s.weight)),
          passLine: points(s.pass_line),
        })),
        passLine: fromHundredths(rule?.pass_line ?? 0),
        interviewRatio: table ? null : fromThousandths(rule?.interview_ratio ?? 3000),
        interviewRatioTable: table,
        bonusEnabled: rule?.bonus_enabled === 1,
        imported,
        importedAt: rule?.imported_at ?? null,
        queryStart: rule?.query_start ?? null,
        publishedAt: rule?.published_at ?? null,
        reviewStart: rule?.review_start ?? null,
        reviewEnd: rule?.review_end ?? null,
      };
    },

    async saveRules(staff: StaffPrincipal, input: SaveRulesInput, ip: string): Promise<void> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const names = new Map((await repo.subjects(officeId, input.examId)).map((s) => [s.id, s.name]));
      const unknown = input.subjects.filter((s) => !names.has(s.subjectId));
      if (unknown.length > 0) throw new AppError(ErrorCode.Validation, '科目不属于该考试，请刷新后再试');
      const lines = new Map((input.subjectPassLines ?? []).map((l) => [l.subjectId, toHundredths(l.passLine)]));
      for (const s of input.subjects) {
        const line = lines.get(s.subjectId);
        if (line !== undefined && line > toHundredths(s.fullMarks))
          throw new AppError(
            ErrorCode.Validation,
            `${names.get(s.subjectId) ?? '科目'}的合格线不能高于该科满分 ${formatPoints(s.fullMarks)}`,
          );
      }
      const at = clock.nowIso();
      await repo.commit(async (trx) => {
        await repo.saveRule(trx, {
          officeId,
          examId: input.examId,
          passLine: toHundredths(input.passLine),
          ratio: toThousandths(input.interviewRatio ?? 3),
          ratioTable: input.interviewRatioTable ? JSON.stringify(input.interviewRatioTable) : null,
          bonusEnabled: input.bonusEnabled ? 1 : 0,
          subjects: input.subjects.map((s) => ({
            subject_id: s.subjectId,
            full_marks: toHundredths(s.fullMarks),
            weight: toThousandths(s.weight),
            pass_line: lines.get(s.subjectId) ?? null,
          })),
          at,
        });
        await repo.recompute(trx, officeId, input.examId);
        const ratio = input.interviewRatioTable
          ? input.interviewRatioTable.map((r) => `${r.maxHeadcount === null ? '其余' : `≤${r.maxHeadcount} 人`} 1:${r.ratio}`).join('，')
          : `1:${input.interviewRatio}`;
        await audit.record(
          staff,
          '设置成绩规则',
          `exam:${input.examId}`,
          `合格线 ${input.passLine}；面试比例 ${ratio}；加分${input.bonusEnabled ? '计入' : '不计入'}`,
          ip,
          trx,
        );
      });
      await changed(officeId);
    },

    /**
     * All or nothing: any wrong row and nothing is written, every wrong row reported. A dry run
     * only reports. Otherwise the exam's scores are replaced whole in one transaction and ranked.
     */
    async importSheet(staff: StaffPrincipal, examId: number, dryRun: boolean, file: Buffer, ip: string): Promise<ScoreImportResult> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      return importLock.run(officeId, async () => {
        const [subjects, tickets, rule] = await Promise.all([
          repo.subjects(officeId, examId),
          repo.tickets(officeId, examId),
          repo.rule(officeId, examId),
        ]);
        if (tickets.length === 0) throw new AppError(ErrorCode.Validation, '该考试尚未发布准考证，无法导入成绩');
        const at = clock.nowIso();
        // Read, checked and totalled in the heavy worker, by the rules as they are now (saved
        // meanwhile, they are applied again in the transaction below).
        const sheet = await deps.heavy.readScores({
          file,
          examId,
          officeId,
          at,
          subjects: packSubjects(subjects),
          tickets: packTickets(tickets),
          rule: { pass_line: rule?.pass_line ?? 0, bonus_enabled: rule?.bonus_enabled ?? 0 },
        });
        const result = { dryRun, rows: sheet.rows, imported: 0, absent: sheet.absent, void: sheet.void, errors: sheet.errors };
        if (dryRun || sheet.errors.length > 0) return result;
        const before = await repo.countScored(officeId, examId);
        const imported = sheet.totals.application.length;
        await repo.commit(async (trx) => {
          await repo.ensureRule(trx, officeId, examId, at);
          // The rules are read again in the transaction: saved meanwhile, they are applied.
          const now = await repo.rule(officeId, examId, trx);
          await repo.replaceScores(trx, officeId, examId, totalRows(sheet.totals), markRows(sheet.marks), at);
          if (now?.updated_at !== (rule?.updated_at ?? at)) await repo.recompute(trx, officeId, examId);
          await audit.record(
            staff,
            before > 0 ? '重新导入成绩' : '导入成绩',
            `exam:${examId}`,
            `${imported} 人（缺考 ${sheet.absent}，违纪 ${sheet.void}）${before > 0 ? `，替换原有 ${before} 人` : ''}`,
            ip,
            trx,
          );
        });
        await changed(officeId);
        return { ...result, imported };
      });
    },

    async ranking(staff: StaffPrincipal, examId: number, positionId: number | undefined): Promise<ScoreRanking> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      // Ranked and summarised in the heavy worker on its own connection; the list's names and marks read here.
      const { subjects, summaries, rows: mine } = await deps.heavy.rank({ officeId, examId, positionId });
      let list: ScoreRanking['list'] = [];
      if (positionId !== undefined) {
        const [names, marks] = await Promise.all([repo.names(mine.map((r) => r.application_id)), repo.marks(officeId, examId, positionId)]);
        const nameOf = new Map(names.map((n) => [n.id, n.name]));
        const marksOf = new Map<number, ScoreRanking['list'][number]['subjects']>();
        for (const m of marks) {
          const l = marksOf.get(m.application_id) ?? [];
          l.push({ subjectId: m.subject_id, mark: m.mark, score: points(m.score) });
          marksOf.set(m.application_id, l);
        }
        list = mine.map((r) => ({
          ticketNo: r.ticket_no,
          name: nameOf.get(r.application_id) ?? '',
          status: r.status,
          subjects: marksOf.get(r.application_id) ?? [],
          bonus: fromHundredths(r.bonus),
          total: points(r.total),
          rank: r.rank,
          qualified: r.qualified === 1,
          inList: r.inList,
          gaveUp: r.gave_up_at !== null,
          filled: r.filled_at !== null,
        }));
      }
      return { subjects: subjects.map((s) => ({ subjectId: s.id, name: s.name })), positions: summaries, list };
    },

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

    /** 放弃: a listed candidate gives up; they leave the list and their place may be filled. */
    async recordGiveUp(staff: StaffPrincipal, input: { examId: number; ticketNo: string; reason: string }, ip: string): Promise<void> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const at = clock.nowIso();
      const done = await repo.commit(async (trx) => {
        const row = await repo.byTicket(officeId, input.examId, input.ticketNo, trx);
        if (!row) throw notFound('scoreOfTicketNo');
        // Recorded already (a doubled click): nothing more to write.
        if (row.gave_up_at !== null) return false;
        const [rule, positions, rows] = await Promise.all([
          repo.rule(officeId, input.examId, trx),
          repo.positions(officeId, input.examId, trx),
          repo.ranked(officeId, input.examId, row.position_id, trx),
        ]);
        const position = positions.find((p) => p.id === row.position_id);
        const need = position ? needOf(rule, position) : 0;
        const me = rows.find((r) => r.application_id === row.application_id);
        if (!me || !listed(me, need)) throw new AppError(ErrorCode.Validation, '该考生不在面试名单中，无需记录放弃');
        await repo.setGaveUp(trx, row.application_id, at, input.reason);
        await audit.record(
          staff,
          '记录放弃面试',
          `exam:${input.examId}`,
          `${input.ticketNo}${input.reason ? `：${input.reason}` : ''}`,
          ip,
          trx,
        );
        return true;
      });
      if (done) await changed(officeId);
    },

    /**
     * 递补: the best-ranked qualified candidates not yet listed take the places given up, everyone
     * tied with the last one taken included; each is told in the same transaction.
     */
    async fillVacancy(staff: StaffPrincipal, input: { examId: number; positionId: number }, ip: string): Promise<{ added: string[] }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const at = clock.nowIso();
      const added = await repo.commit(async (trx) => {
        const [rule, positions, rows] = await Promise.all([
          repo.rule(officeId, input.examId, trx),
          repo.positions(officeId, input.examId, trx),
          repo.ranked(officeId, input.examId, input.positionId, trx),
        ]);
        const position = positions.find((p) => p.id === input.positionId);
        if (!position) throw notFound('position');
        const need = needOf(rule, position);
        const open = need - rows.filter((r) => listed(r, need)).length;
        if (!rows.some((r) => r.gave_up_at !== null) || open <= 0) throw new AppError(ErrorCode.Validation, '该岗位面试名额已满，无需递补');
        const waiting = rows
          .filter((r) => r.qualified === 1 && r.gave_up_at === null && !listed(r, need))
          .sort((a, b) => (b.total ?? 0) - (a.total ?? 0));
        if (waiting.length === 0) throw new AppError(ErrorCode.Validation, '没有可递补的合格考生');
        const taken: RankedRow[] = [];
        for (const r of waiting) {
          const last = taken[taken.length - 1];
          if (taken.length >= open && last !== undefined && r.total !== last.total) break;
          taken.push(r);
        }
        await repo.setFilled(
          trx,
          taken.map((r) => r.application_id),
          at,
        );
        for (const r of taken)
          await deps.notifications.stepToApplication(trx, {
            officeId,
            applicationId: r.application_id,
            kind: 'next_stage_result',
            detail: `您已递补进入「${position.name}」岗位面试名单`,
            at,
          });
        const numbers = taken.map((r) => r.ticket_no);
        await audit.record(staff, '面试递补', `exam:${input.examId}`, `${position.code} ${position.name}：${numbers.join('、')}`, ip, trx);
        return numbers;
      });
      await changed(officeId);
      return { added };
    },

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

    /**
     * The whole ranking as .xlsx, position by position (full names: staff only, audited), read and
     * written by an export worker on its own connection (ranking-sheet.ts), so neither the ranks
     * nor the rows touch the event loop; here only the count for the console's progress.
     */
    /**
     * 成绩表模板: 准考证号, 姓名, a column per subject and 加分 when bonus points count, one row per
     * ticket holder: what the import reads. It lists candidates' names, so it is audited like an export.
     */
    async scoreTemplate(staff: StaffPrincipal, examId: number, ip: string): Promise<{ rows: number; file: Readable }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const [subjects, tickets, rule] = await Promise.all([
        repo.subjects(officeId, examId),
        repo.tickets(officeId, examId),
        repo.rule(officeId, examId),
      ]);
      if (subjects.length === 0) throw new AppError(ErrorCode.Validation, '该考试还没有科目，请先在考场编排中添加考试科目');
      if (tickets.length === 0) throw new AppError(ErrorCode.Validation, '该考试尚未发布准考证，发布后才能下载成绩表模板');
      await audit.record(staff, '下载成绩表模板', `exam:${examId}`, `${tickets.length} 人`, ip);
      const scoreColumns = [...subjects.map((s) => s.name), ...(rule?.bonus_enabled === 1 ? [BONUS_COLUMN] : [])];
      return { rows: tickets.length, file: templateFile({ sheetName: '成绩表', scoreColumns, rows: tickets }) };
    },

    async exportRanking(staff: StaffPrincipal, examId: number, ip: string): Promise<{ rows: number; file: Readable }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const rows = await repo.countScored(officeId, examId);
      await audit.record(staff, '导出成绩', `exam:${examId}`, `${rows} 人`, ip);
      return { rows, file: await deps.exportFile({ officeId, examId }, '成绩排名导出失败，请稍后再试') };
    },
  };
}

export type ScoresService = ReturnType<typeof createScoresService>;
