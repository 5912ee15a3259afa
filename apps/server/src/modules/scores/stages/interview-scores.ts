import {
  ErrorCode,
  INTERVIEW_COLUMN,
  INTERVIEW_FULL_MARKS,
  interviewEvent,
  type ScoreImportResult,
  type StageRow,
} from '@zhikaoyun/shared';
import type { Readable } from 'node:stream';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { markRows } from '../scores/score-rows';
import { packTickets } from '../scores/sheet';
import { templateFile } from '../scores/template';
import { beforeInterview } from './entrant';
import type { StagesDeps } from './service';

const NO_INTERVIEWEES = '面试名单中还没有可以参加面试的考生';

/** Who sits the interview, by position (the stages service computes it from every result so far). */
type Interviewees = (officeId: number, examId: number) => Promise<{ r: StageRow; positionId: number }[]>;

/** 面试成绩: the sheet to fill and its import, each step judged by the machine after confirmation. */
export function createInterviewScoresService(deps: StagesDeps, interviewees: Interviewees) {
  const { audit, changed, importLock, exams, later } = deps;
  return {
    /**
     * 面试成绩 from Excel (准考证号, 面试成绩: points out of 100, or 缺考 / 违纪), for the entrants
     * not failed at 资格复审. A dry run only checks; otherwise all rows replace the earlier import
     * in one transaction, or none when any row is wrong.
     */
    async importInterview(staff: StaffPrincipal, examId: number, dryRun: boolean, file: Buffer, ip: string): Promise<ScoreImportResult> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      return importLock.run(officeId, async () => {
        const eligible = await interviewees(officeId, examId);
        if (eligible.length === 0) throw new AppError(ErrorCode.Validation, NO_INTERVIEWEES);
        const at = clock.nowIso();
        const sheet = await deps.heavy.readScores({
          file,
          examId,
          officeId,
          subjects: [{ id: 0, name: INTERVIEW_COLUMN, full_marks: INTERVIEW_FULL_MARKS * 100, weight: 1000, pass_line: null }],
          tickets: packTickets(
            eligible.map(({ r, positionId }) => ({
              ticket_no: r.ticketNo,
              application_id: r.applicationId,
              position_id: positionId,
              name: r.name,
            })),
          ),
          at,
          rule: null,
        });
        const marks = markRows(sheet.marks).slice(0, sheet.marks.application.length);
        const result = { dryRun, rows: sheet.rows, imported: 0, absent: sheet.absent, void: sheet.void, errors: sheet.errors };
        if (dryRun || sheet.errors.length > 0) return result;
        // The import replaces every earlier mark: each row is judged from where its candidate stood before any.
        const from = new Map(eligible.map(({ r }) => [r.applicationId, { ticketNo: r.ticketNo, state: beforeInterview(r.qualification) }]));
        await later.fire({
          officeId,
          examId,
          actor: staff,
          ip,
          replacesInterview: true,
          steps: marks.map((m) => {
            const who = from.get(m.application_id)!;
            return {
              applicationId: m.application_id,
              ticketNo: who.ticketNo,
              from: who.state,
              event: interviewEvent(m.mark),
              mark: { outcome: m.mark, score: m.score },
            };
          }),
          audit: (before) => ({
            action: before > 0 ? '重新导入面试成绩' : '导入面试成绩',
            detail: `${marks.length} 人（缺考 ${sheet.absent}，违纪 ${sheet.void}）${before > 0 ? `，替换原有 ${before} 人` : ''}`,
          }),
        });
        await changed(officeId);
        return { ...result, imported: marks.length };
      });
    },

    /**
     * 面试成绩表模板: 准考证号, 姓名, 面试成绩, one row per candidate who sits the interview (the
     * rows the import takes). It lists names, so it is audited like an export.
     */
    async interviewTemplate(staff: StaffPrincipal, examId: number, ip: string): Promise<{ rows: number; file: Readable }> {
      const { officeId } = officeAdminScope(staff);
      await exams.require(officeId, examId);
      const eligible = await interviewees(officeId, examId);
      if (eligible.length === 0) throw new AppError(ErrorCode.Validation, NO_INTERVIEWEES);
      await audit.record(staff, '下载面试成绩表模板', `exam:${examId}`, `${eligible.length} 人`, ip);
      const rows = eligible
        .map(({ r }) => ({ ticket_no: r.ticketNo, name: r.name }))
        .sort((a, b) => a.ticket_no.localeCompare(b.ticket_no));
      return { rows: rows.length, file: templateFile({ sheetName: '面试成绩表', scoreColumns: [INTERVIEW_COLUMN], rows }) };
    },
  };
}
