import { ErrorCode, type AdminExam, type ExamConfig } from '@zhikaoyun/shared';
import { sql } from 'kysely';
import { AppError } from '../../lib/app-error';
import { nowIso } from '../../lib/time';
import type { ConsoleDeps } from '../audit/console-deps';
import type { AuditActor } from '../audit/service';
import { toExam } from './service';

export interface ExamValues {
  id?: number | undefined;
  name: string;
  registrationStart: string;
  registrationEnd: string;
  reviewStart: string;
  reviewEnd: string;
  confirmationStart: string;
  confirmationEnd: string;
  config: ExamConfig;
  published: boolean;
}

/** Exams as the console manages them: drafts too, with their windows and form configuration. */
export function createExamsAdminService({ db, audit, changed }: ConsoleDeps) {
  async function find(officeId: number, examId: number) {
    const row = await db.kysely
      .selectFrom('exam')
      .selectAll()
      .where('office_id', '=', officeId)
      .where('id', '=', examId)
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.NotFound, '该考试不存在');
    return row;
  }

  return {
    async list(officeId: number): Promise<AdminExam[]> {
      const now = nowIso();
      const rows = await db.kysely
        .selectFrom('exam')
        .selectAll('exam')
        .select((eb) => [
          eb
            .selectFrom('position')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('position.exam_id', '=', 'exam.id')
            .as('positions'),
          eb
            .selectFrom('application')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('application.exam_id', '=', 'exam.id')
            .where('application.status', '!=', 'draft')
            .as('applications'),
        ])
        .where('office_id', '=', officeId)
        .orderBy('registration_start', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map((r) => ({
        ...toExam(r, now),
        published: r.published === 1,
        positions: Number(r.positions ?? 0),
        applications: Number(r.applications ?? 0),
      }));
    },

    /** Creates the exam, or updates it when `id` is given; answers its id. */
    async save(actor: AuditActor, input: ExamValues, ip: string): Promise<{ id: number }> {
      const values = {
        name: input.name,
        registration_start: input.registrationStart,
        registration_end: input.registrationEnd,
        review_start: input.reviewStart,
        review_end: input.reviewEnd,
        confirmation_start: input.confirmationStart,
        confirmation_end: input.confirmationEnd,
        config: JSON.stringify(input.config),
        published: input.published ? 1 : 0,
        updated_at: nowIso(),
      };
      let id: number;
      if (input.id !== undefined) {
        await find(actor.officeId, input.id);
        await db.kysely.updateTable('exam').set(values).where('office_id', '=', actor.officeId).where('id', '=', input.id).execute();
        id = input.id;
      } else {
        const row = await db.kysely
          .insertInto('exam')
          .values({ ...values, office_id: actor.officeId, created_at: values.updated_at })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = row.id;
      }
      await audit.record(actor, input.id === undefined ? '新建考试' : '修改考试', `exam:${id}`, input.name, ip);
      await changed(actor.officeId);
      return { id };
    },

    /** Opens an exam to candidates, or takes it back off the site; applications stay. */
    async setPublished(actor: AuditActor, examId: number, published: boolean, ip: string): Promise<void> {
      const exam = await find(actor.officeId, examId);
      await db.kysely
        .updateTable('exam')
        .set({ published: published ? 1 : 0, updated_at: nowIso() })
        .where('office_id', '=', actor.officeId)
        .where('id', '=', examId)
        .execute();
      await audit.record(actor, published ? '发布考试' : '撤回考试', `exam:${examId}`, exam.name, ip);
      await changed(actor.officeId);
    },

    /** The exam must be the office's: every console write about an exam checks it first. */
    find,
  };
}
export type ExamsAdminService = ReturnType<typeof createExamsAdminService>;
