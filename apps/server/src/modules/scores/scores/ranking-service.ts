import { ErrorCode, fromHundredths, laterStateOf, type LaterStatus, type ScoreRanking } from '@zhikaoyun/shared';
import type { Readable } from 'node:stream';
import { AppError, notFound } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { listed, needOf, points } from './ranking';
import type { RankedRow } from './ranking-repository';
import type { ScoresDeps } from './service';

/**
 * The state of a ranked candidate who is not an entrant of the stages: scored, or out of the list
 * for good after giving up their place.
 */
const unlistedState = (r: { gave_up_at: string | null }): LaterStatus =>
  laterStateOf({
    scored: true,
    listed: false,
    leftList: r.gave_up_at !== null,
    qualification: null,
    interview: null,
    inMedical: false,
    medical: null,
  });

/** The ranking per position and its export, the interview list's entrants, 放弃 and 递补 (through the later machine's writer). */
export function createScoreRankingService(deps: ScoresDeps) {
  const { repo, audit, changed, exams, later } = deps;
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

    async ranking(staff: StaffPrincipal, examId: number, positionId: number | undefined): Promise<ScoreRanking> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      // Ranked and summarised in the heavy worker on its own connection; the list's names and marks read here.
      const { subjects, summaries, rows: mine } = await deps.heavy.rank({ officeId, examId, positionId });
      let list: ScoreRanking['list'] = [];
      if (positionId !== undefined) {
        const [names, marks, states] = await Promise.all([
          repo.names(mine.map((r) => r.application_id)),
          repo.marks(officeId, examId, positionId),
          deps.laterStates(officeId, examId),
        ]);
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
          laterStatus: states.get(r.application_id) ?? unlistedState(r),
        }));
      }
      return { subjects: subjects.map((s) => ({ subjectId: s.id, name: s.name })), positions: summaries, list };
    },

    /** 放弃: a listed candidate gives up (the machine's `leaveList`); they leave the list and their place may be filled. */
    async recordGiveUp(staff: StaffPrincipal, input: { examId: number; ticketNo: string; reason: string }, ip: string): Promise<void> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, input.examId);
      const states = await deps.laterStates(officeId, input.examId);
      const done = await repo.commit(async (trx) => {
        const row = await repo.byTicket(officeId, input.examId, input.ticketNo, trx);
        if (!row) throw notFound('scoreOfTicketNo');
        // Recorded already (a doubled click): nothing more to write.
        if (row.gave_up_at !== null) return false;
        await later.fireIn(trx, {
          officeId,
          examId: input.examId,
          actor: staff,
          ip,
          reason: input.reason,
          steps: [
            {
              applicationId: row.application_id,
              ticketNo: row.ticket_no,
              from: states.get(row.application_id) ?? unlistedState(row),
              event: 'leaveList',
            },
          ],
          audit: { action: '记录放弃面试', detail: `${input.ticketNo}${input.reason ? `：${input.reason}` : ''}` },
        });
        return true;
      });
      if (done) await changed(officeId);
    },

    /**
     * 递补: the best-ranked qualified candidates not yet listed take the places given up, everyone
     * tied with the last one taken included (each the machine's `fill`); each is told in the same
     * transaction.
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
        const numbers = taken.map((r) => r.ticket_no);
        await later.fireIn(trx, {
          officeId,
          examId: input.examId,
          actor: staff,
          ip,
          steps: taken.map((r) => ({
            applicationId: r.application_id,
            ticketNo: r.ticket_no,
            from: unlistedState(r),
            event: 'fill' as const,
          })),
          audit: { action: '面试递补', detail: `${position.code} ${position.name}：${numbers.join('、')}` },
        });
        for (const r of taken)
          await deps.notifications.stepToApplication(trx, {
            officeId,
            applicationId: r.application_id,
            kind: 'next_stage_result',
            detail: `您已递补进入「${position.name}」岗位面试名单`,
            at,
          });
        return numbers;
      });
      await changed(officeId);
      return { added };
    },

    /**
     * The whole ranking as .xlsx, position by position (full names: staff only, audited), read and
     * written by an export worker on its own connection (ranking-sheet.ts), so neither the ranks
     * nor the rows touch the event loop; here only the count for the console's progress.
     */
    async exportRanking(staff: StaffPrincipal, examId: number, ip: string): Promise<{ rows: number; file: Readable }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const rows = await repo.countScored(officeId, examId);
      await audit.record(staff, '导出成绩', `exam:${examId}`, `${rows} 人`, ip);
      return { rows, file: await deps.exportFile({ officeId, examId }, '成绩排名导出失败，请稍后再试') };
    },
  };
}
