import { ErrorCode, type Position, type PositionImportResult } from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../../db/errors';
import { AppError, notFound } from '../../../lib/app-error';
import { nowIso } from '../../../lib/clock';
import type { OfficeLock } from '../../../lib/office-lock';
import type { ConsoleDeps } from '../../access/console-deps';
import type { AuditActor, AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../exams/lookup';
import type { PositionColumns, PositionsRepository } from './repository';
import { toPosition } from './service';
import { writePositionSheet, type PositionValues, type readPositionSheet } from './sheet';

export interface PositionsAdminDeps {
  repo: PositionsRepository;
  audit: AuditService;
  changed: ConsoleDeps['changed'];
  exams: Pick<ExamLookup, 'require'>;
  /** One import at a time per office (and per deployment when Redis is configured). */
  importLock: OfficeLock;
  /** The sheet read off the event loop (a worker thread, decision 014). */
  heavy: { readPositions(examId: number, file: Buffer): ReturnType<typeof readPositionSheet> };
}

const columns = (p: PositionValues): PositionColumns => ({
  code: p.code,
  name: p.name,
  unit: p.unit,
  headcount: p.headcount,
  description: p.description,
  requirements: JSON.stringify(p.requirements),
});

/** Positions as the console manages them, one by one or a whole Excel sheet at a time. */
export function createPositionsAdminService({ repo, audit, exams, changed, importLock, heavy }: PositionsAdminDeps) {
  async function find(officeId: number, id: number) {
    const row = await repo.find(officeId, id);
    if (!row) throw notFound('position');
    return row;
  }

  const duplicateCode = (code: string) => new AppError(ErrorCode.Validation, `岗位代码 ${code} 已存在，请换一个`);

  return {
    async units(officeId: number): Promise<string[]> {
      return (await repo.officeUnits(officeId)).map((u) => u.unit);
    },

    async list(officeId: number, examId: number): Promise<Position[]> {
      await exams.require(officeId, examId);
      const [rows, links] = await Promise.all([repo.list(officeId, examId, {}), repo.subjectLinks(officeId, examId)]);
      const subjects = new Map<number, number[]>();
      for (const l of links) subjects.set(l.position_id, [...(subjects.get(l.position_id) ?? []), l.subject_id]);
      return rows.map((r) => ({ ...toPosition(r), subjectIds: subjects.get(r.id) ?? [] }));
    },

    async save(actor: AuditActor, input: PositionValues, ip: string): Promise<{ id: number }> {
      await exams.require(actor.officeId, input.examId);
      // The subjects are the exam's own; checked before anything is written.
      const subjectIds = [...new Set(input.subjectIds ?? [])];
      if (subjectIds.length > 0) {
        const known = new Set(await repo.examSubjectIds(actor.officeId, input.examId));
        if (subjectIds.some((s) => !known.has(s))) throw new AppError(ErrorCode.Validation, '所选科目不属于该考试，请刷新后再选');
      }
      const now = nowIso();
      let id: number;
      try {
        if (input.id !== undefined) {
          const existing = await find(actor.officeId, input.id);
          if (existing.exam_id !== input.examId) throw new AppError(ErrorCode.Validation, '岗位不能移到另一场考试');
          await repo.update(actor.officeId, input.id, columns(input), now);
          id = input.id;
        } else {
          id = await repo.insert(actor.officeId, input.examId, columns(input), now);
        }
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateCode(input.code);
        throw err;
      }
      // Left out on an edit (a form that does not show subjects): the position keeps its own.
      if (input.subjectIds !== undefined || input.id === undefined) await repo.setSubjects(id, subjectIds);
      await audit.record(
        actor,
        input.id === undefined ? '新建岗位' : '修改岗位',
        `position:${id}`,
        `${input.code} ${input.name}${subjectIds.length > 0 ? `（考 ${subjectIds.length} 个科目）` : ''}`,
        ip,
      );
      await changed(actor.officeId);
      return { id };
    },

    /** Only a position nobody has chosen (not even in a draft) may go: applications point at it. */
    async remove(actor: AuditActor, id: number, ip: string): Promise<void> {
      const position = await find(actor.officeId, id);
      if (!(await repo.removeUnused(actor.officeId, id)))
        throw new AppError(ErrorCode.Validation, '已有考生选择该岗位，不能删除；如需停招可将招聘人数改为实际情况并在岗位描述中说明');
      await audit.record(actor, '删除岗位', `position:${id}`, `${position.code} ${position.name}`, ip);
      await changed(actor.officeId);
    },

    /**
     * All or nothing: when any row is wrong nothing is written and every wrong row is reported,
     * so the office fixes the sheet and imports it again. A row whose code exists updates it.
     */
    async importSheet(actor: AuditActor, examId: number, file: Buffer, ip: string): Promise<PositionImportResult> {
      await exams.require(actor.officeId, examId);
      return importLock.run(actor.officeId, async () => {
        const { rows, errors, defaulted } = await heavy.readPositions(examId, file);
        if (errors.length > 0) return { created: 0, updated: 0, errors };
        const { created, updated } = await repo.importRows(actor.officeId, examId, rows.map(columns), nowIso());
        await audit.record(actor, '导入岗位', `exam:${examId}`, `新增 ${created}，更新 ${updated}`, ip);
        await changed(actor.officeId);
        return { created, updated, errors: [], ...(defaulted.length > 0 ? { defaulted } : {}) };
      });
    },

    /** A workbook to fill for the exam (it may have no position yet): what the import reads, with an example. */
    async templateSheet(officeId: number, examId: number): Promise<Buffer> {
      const exam = await exams.require(officeId, examId);
      return writePositionSheet([], { title: `${exam.name} 岗位表` });
    },

    async exportSheet(actor: AuditActor, examId: number, ip: string): Promise<Buffer> {
      const positions = await this.list(actor.officeId, examId);
      await audit.record(actor, '导出岗位', `exam:${examId}`, `${positions.length} 个岗位`, ip);
      return writePositionSheet(positions);
    },
  };
}
