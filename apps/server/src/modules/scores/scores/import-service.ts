import { ErrorCode, type ScoreImportResult } from '@zhikaoyun/shared';
import type { Readable } from 'node:stream';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { BONUS_COLUMN } from './columns';
import { markRows, totalRows } from './score-rows';
import type { ScoresDeps } from './service';
import { packSubjects, packTickets } from './sheet';
import { templateFile } from './template';

/** The score sheet: its template and its import (all rows or none). */
export function createScoreImportService(deps: ScoresDeps) {
  const { repo, audit, changed, importLock, exams } = deps;
  return {
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
  };
}
