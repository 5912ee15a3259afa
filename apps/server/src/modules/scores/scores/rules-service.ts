import {
  ErrorCode,
  formatPoints,
  fromHundredths,
  fromThousandths,
  toHundredths,
  toThousandths,
  type ScoreRules,
  type saveScoreRulesSchema,
} from '@zhikaoyun/shared';
import type { z } from 'zod';
import { AppError } from '../../../lib/app-error';
import { clock } from '../../../lib/clock';
import type { StaffPrincipal } from '../../../plugins/auth';
import { officeAdminScope } from '../../access/scope';
import { points, ratioTable } from './ranking';
import type { ScoresDeps } from './service';

type SaveRulesInput = z.output<typeof saveScoreRulesSchema>;

/** The exam's score rules: subjects' weights and pass lines, the pass line, the interview ratio, bonus points. */
export function createScoreRulesService(deps: ScoresDeps) {
  const { repo, audit, changed, exams } = deps;
  return {
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
  };
}
