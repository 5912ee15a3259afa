import { ErrorCode, type Position, type PositionImportResult } from '@zhikaoyun/shared';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../lib/app-error';
import { nowIso } from '../../lib/time';
import type { ConsoleDeps } from '../audit/console-deps';
import type { AuditActor } from '../audit/service';
import type { ExamsAdminService } from '../exams/admin-service';
import { createPositionsRepository } from './repository';
import { toPosition } from './service';
import { readPositionSheet, writePositionSheet, type PositionValues } from './sheet';

export interface PositionsAdminDeps extends ConsoleDeps {
  exams: Pick<ExamsAdminService, 'find'>;
}

const columns = (p: PositionValues) => ({
  code: p.code,
  name: p.name,
  unit: p.unit,
  headcount: p.headcount,
  description: p.description,
  requirements: JSON.stringify(p.requirements),
});

/** Positions as the console manages them, one by one or a whole Excel sheet at a time. */
export function createPositionsAdminService({ db, audit, exams, changed }: PositionsAdminDeps) {
  const repo = createPositionsRepository(db);

  async function find(officeId: number, id: number) {
    const row = await db.kysely
      .selectFrom('position')
      .select(['id', 'exam_id', 'code', 'name'])
      .where('office_id', '=', officeId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.NotFound, '该岗位不存在');
    return row;
  }

  const duplicateCode = (code: string) => new AppError(ErrorCode.Validation, `岗位代码 ${code} 已存在，请换一个`);

  return {
    async list(officeId: number, examId: number): Promise<Position[]> {
      await exams.find(officeId, examId);
      return (await repo.list(officeId, examId, {})).map(toPosition);
    },

    async save(actor: AuditActor, input: PositionValues, ip: string): Promise<{ id: number }> {
      await exams.find(actor.officeId, input.examId);
      const now = nowIso();
      let id: number;
      try {
        if (input.id !== undefined) {
          const existing = await find(actor.officeId, input.id);
          if (existing.exam_id !== input.examId) throw new AppError(ErrorCode.Validation, '岗位不能移到另一场考试');
          await db.kysely
            .updateTable('position')
            .set({ ...columns(input), updated_at: now })
            .where('office_id', '=', actor.officeId)
            .where('id', '=', input.id)
            .execute();
          id = input.id;
        } else {
          const row = await db.kysely
            .insertInto('position')
            .values({ ...columns(input), office_id: actor.officeId, exam_id: input.examId, created_at: now, updated_at: now })
            .returning('id')
            .executeTakeFirstOrThrow();
          id = row.id;
        }
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicateCode(input.code);
        throw err;
      }
      await audit.record(actor, input.id === undefined ? '新建岗位' : '修改岗位', `position:${id}`, `${input.code} ${input.name}`, ip);
      await changed(actor.officeId);
      return { id };
    },

    /** Only a position nobody has chosen (not even in a draft) may go: applications point at it. */
    async remove(actor: AuditActor, id: number, ip: string): Promise<void> {
      const position = await find(actor.officeId, id);
      await db.kysely.transaction().execute(async (trx) => {
        const used = await trx.selectFrom('application').select('id').where('position_id', '=', id).limit(1).executeTakeFirst();
        if (used)
          throw new AppError(ErrorCode.Validation, '已有考生选择该岗位，不能删除；如需停招可将招聘人数改为实际情况并在岗位描述中说明');
        await trx.deleteFrom('position').where('office_id', '=', actor.officeId).where('id', '=', id).execute();
      });
      await audit.record(actor, '删除岗位', `position:${id}`, `${position.code} ${position.name}`, ip);
      await changed(actor.officeId);
    },

    /**
     * All or nothing: when any row is wrong nothing is written and every wrong row is reported,
     * so the office fixes the sheet and imports it again. A row whose code exists updates it.
     */
    async importSheet(actor: AuditActor, examId: number, file: Buffer, ip: string): Promise<PositionImportResult> {
      await exams.find(actor.officeId, examId);
      const { rows, errors } = await readPositionSheet(examId, file);
      if (errors.length > 0) return { created: 0, updated: 0, errors };
      const now = nowIso();
      let created = 0;
      let updated = 0;
      await db.kysely.transaction().execute(async (trx) => {
        const existing = new Map(
          (
            await trx
              .selectFrom('position')
              .select(['id', 'code'])
              .where('office_id', '=', actor.officeId)
              .where('exam_id', '=', examId)
              .execute()
          ).map((r) => [r.code, r.id]),
        );
        for (const row of rows) {
          const id = existing.get(row.code);
          if (id !== undefined) {
            await trx
              .updateTable('position')
              .set({ ...columns(row), updated_at: now })
              .where('id', '=', id)
              .execute();
            updated++;
          } else {
            await trx
              .insertInto('position')
              .values({ ...columns(row), office_id: actor.officeId, exam_id: examId, created_at: now, updated_at: now })
              .execute();
            created++;
          }
        }
      });
      await audit.record(actor, '导入岗位', `exam:${examId}`, `新增 ${created}，更新 ${updated}`, ip);
      await changed(actor.officeId);
      return { created, updated, errors: [] };
    },

    async exportSheet(actor: AuditActor, examId: number, ip: string): Promise<Buffer> {
      const positions = await this.list(actor.officeId, examId);
      await audit.record(actor, '导出岗位', `exam:${examId}`, `${positions.length} 个岗位`, ip);
      return writePositionSheet(positions);
    },
  };
}
