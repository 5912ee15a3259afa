import { ErrorCode, type ExamDocument } from '@zhikaoyun/shared';
import { AppError } from '../../lib/app-error';
import { sanitizeRichText } from '../../lib/rich-text';
import { nowIso } from '../../lib/time';
import type { ConsoleDeps } from '../audit/console-deps';
import type { AuditActor } from '../audit/service';
import { createDocumentsRepository } from './repository';
import { toDocument } from './service';

const SORT = { notice: 1, guide: 2, pledge: 3 } as const;

/** An exam's notice, guide and pledge as the console writes them: one of each type, sanitized. */
export function createDocumentsAdminService({ db, audit, changed }: ConsoleDeps) {
  const repo = createDocumentsRepository(db);

  async function examOf(officeId: number, examId: number) {
    const exam = await db.kysely
      .selectFrom('exam')
      .select(['id', 'name'])
      .where('office_id', '=', officeId)
      .where('id', '=', examId)
      .executeTakeFirst();
    if (!exam) throw new AppError(ErrorCode.NotFound, '该考试不存在');
    return exam;
  }

  return {
    async list(officeId: number, examId: number): Promise<ExamDocument[]> {
      await examOf(officeId, examId);
      const rows = await repo.listByExam(officeId, examId, undefined);
      return rows.map(toDocument);
    },

    async save(
      actor: AuditActor,
      input: { examId: number; type: keyof typeof SORT; title: string; content: string },
      ip: string,
    ): Promise<void> {
      await examOf(actor.officeId, input.examId);
      const content = sanitizeRichText(input.content);
      if (!content.trim()) throw new AppError(ErrorCode.Validation, '正文不能为空');
      const now = nowIso();
      await db.kysely.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('exam_document')
          .select('id')
          .where('office_id', '=', actor.officeId)
          .where('exam_id', '=', input.examId)
          .where('type', '=', input.type)
          .orderBy('id')
          .executeTakeFirst();
        if (existing) {
          await trx
            .updateTable('exam_document')
            .set({ title: input.title, content, updated_at: now })
            .where('id', '=', existing.id)
            .execute();
        } else {
          await trx
            .insertInto('exam_document')
            .values({
              office_id: actor.officeId,
              exam_id: input.examId,
              type: input.type,
              title: input.title,
              content,
              sort: SORT[input.type],
              created_at: now,
              updated_at: now,
            })
            .execute();
        }
      });
      await audit.record(actor, '修改考试文件', `exam:${input.examId}`, input.title, ip);
      await changed(actor.officeId);
    },
  };
}
