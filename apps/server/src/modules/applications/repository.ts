import { CompiledQuery } from 'kysely';
import { commitGroupFor } from '../../db/commit-group';
import type { Db } from '../../db/database';

const COLUMNS = ['id', 'exam_id', 'candidate_id', 'position_id', 'status', 'form', 'reason', 'submitted_at', 'updated_at'] as const;

export function createApplicationsRepository(db: Db) {
  // Every write goes through the group commit: durable when acknowledged, one fsync for many.
  const commits = commitGroupFor(db);

  // The two reads every candidate call makes, built and compiled once: Kysely would otherwise
  // rebuild and recompile the same SQL on each call (a third of a submit's time went there).
  // The parameters are given in the order of the where clauses below.
  const byCandidate = db.kysely
    .selectFrom('application')
    .select(COLUMNS)
    .where('office_id', '=', 0)
    .where('exam_id', '=', 0)
    .where('candidate_id', '=', 0)
    .compile();
  const historyOf = db.kysely
    .selectFrom('application_history')
    .select(['status', 'reason', 'actor', 'at'])
    .where('application_id', '=', 0)
    .orderBy('id')
    .compile();
  async function run<R>(compiled: CompiledQuery<R>, parameters: unknown[]): Promise<R[]> {
    return (await db.kysely.executeQuery(CompiledQuery.raw(compiled.sql, parameters) as CompiledQuery<R>)).rows;
  }

  return {
    async findByCandidate(officeId: number, examId: number, candidateId: number) {
      return (await run(byCandidate, [officeId, examId, candidateId]))[0];
    },
    findById(officeId: number, id: number) {
      return db.kysely.selectFrom('application').select(COLUMNS).where('office_id', '=', officeId).where('id', '=', id).executeTakeFirst();
    },
    async insertDraft(row: {
      office_id: number;
      exam_id: number;
      candidate_id: number;
      position_id: number | null;
      form: string;
      at: string;
    }) {
      await commits.run(async (trx) => {
        const app = await trx
          .insertInto('application')
          .values({
            office_id: row.office_id,
            exam_id: row.exam_id,
            candidate_id: row.candidate_id,
            position_id: row.position_id,
            status: 'draft',
            form: row.form,
            reason: '',
            created_at: row.at,
            updated_at: row.at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('application_history')
          .values({ application_id: app.id, status: 'draft', reason: '', actor: 'candidate', actor_id: row.candidate_id, at: row.at })
          .execute();
      });
    },
    /** Saves the form only while the application is still editable; false when it was not. */
    async updateDraft(officeId: number, id: number, fields: { form: string; position_id: number | null; at: string }): Promise<boolean> {
      const r = await commits.run((trx) =>
        trx
          .updateTable('application')
          .set({ form: fields.form, position_id: fields.position_id, updated_at: fields.at })
          .where('office_id', '=', officeId)
          .where('id', '=', id)
          .where('status', 'in', ['draft', 'rejected'])
          .executeTakeFirst(),
      );
      return Number(r.numUpdatedRows) === 1;
    },
    /** updateDraft that also gives back the row as saved (RETURNING: no second read). */
    saveDraft(officeId: number, id: number, fields: { form: string; position_id: number | null; at: string }) {
      return commits.run((trx) =>
        trx
          .updateTable('application')
          .set({ form: fields.form, position_id: fields.position_id, updated_at: fields.at })
          .where('office_id', '=', officeId)
          .where('id', '=', id)
          .where('status', 'in', ['draft', 'rejected'])
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
    },
    /**
     * Moves an application from one of `from` to `to` and records it, in one transaction. The
     * conditional update is what makes a doubled or concurrent request change it only once.
     */
    async transition(
      officeId: number,
      id: number,
      from: readonly string[],
      to: string,
      entry: { reason: string; actor: 'candidate' | 'staff'; actorId: number; at: string },
      extra: { submitted_at?: string; reviewed_at?: string } = {},
    ): Promise<boolean> {
      return commits.run(async (trx) => {
        const r = await trx
          .updateTable('application')
          .set({ status: to, reason: entry.reason, updated_at: entry.at, ...extra })
          .where('office_id', '=', officeId)
          .where('id', '=', id)
          .where('status', 'in', [...from])
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await trx
          .insertInto('application_history')
          .values({ application_id: id, status: to, reason: entry.reason, actor: entry.actor, actor_id: entry.actorId, at: entry.at })
          .execute();
        return true;
      });
    },
    history(applicationId: number) {
      return run(historyOf, [applicationId]);
    },
  };
}
export type ApplicationsRepository = ReturnType<typeof createApplicationsRepository>;
export type ApplicationRow = NonNullable<Awaited<ReturnType<ApplicationsRepository['findById']>>>;
