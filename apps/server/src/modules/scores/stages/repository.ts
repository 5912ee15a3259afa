import type { LaterStage } from '@zhikaoyun/shared';
import type { Insertable, Kysely } from 'kysely';
import { committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB, LaterHistoryTable, StageResultTable } from '../../../db/schema';

const INSERT_CHUNK = 500;

/** The SQL of the later stages: results per ticket and stage, the interview weight, publishing. */
export function createStagesRepository(db: Db) {
  const k = db.kysely;
  return {
    commit: committer(db),
    /** The interview's share in percent, or undefined before the exam has score rules. */
    async interviewWeight(officeId: number, examId: number): Promise<number | undefined> {
      const row = await k
        .selectFrom('score_rule')
        .select('interview_weight')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      return row?.interview_weight;
    },
    async saveInterviewWeight(trx: Kysely<DB>, officeId: number, examId: number, weight: number, at: string): Promise<boolean> {
      const r = await trx
        .updateTable('score_rule')
        .set({ interview_weight: weight, updated_at: at })
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    results(officeId: number, examId: number) {
      return k
        .selectFrom('stage_result')
        .select(['application_id', 'stage', 'outcome', 'score'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .execute();
    },
    /** Writes results, replacing a ticket's earlier result for the same stage (the later machine's writer only). */
    async saveResults(trx: Kysely<DB>, rows: StageResultTable[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx
          .insertInto('stage_result')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) =>
            oc.columns(['application_id', 'stage']).doUpdateSet((eb) => ({
              outcome: eb.ref('excluded.outcome'),
              score: eb.ref('excluded.score'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
    },
    /** Removes the exam's results of one stage (an import replaces them); answers how many there were. */
    async clearStage(trx: Kysely<DB>, examId: number, stage: LaterStage): Promise<number> {
      const gone = await trx.deleteFrom('stage_result').where('exam_id', '=', examId).where('stage', '=', stage).executeTakeFirst();
      return Number(gone.numDeletedRows);
    },
    /** 放弃面试: the place on the interview list given up (the later machine's writer only). */
    async markGaveUp(trx: Kysely<DB>, applicationIds: number[], at: string, reason: string): Promise<void> {
      if (applicationIds.length > 0)
        await trx
          .updateTable('score_total')
          .set({ gave_up_at: at, gave_up_reason: reason })
          .where('application_id', 'in', applicationIds)
          .execute();
    },
    /** 递补: added to the interview list in a place given up (the later machine's writer only). */
    async markFilled(trx: Kysely<DB>, applicationIds: number[], at: string): Promise<void> {
      if (applicationIds.length > 0)
        await trx.updateTable('score_total').set({ filled_at: at }).where('application_id', 'in', applicationIds).execute();
    },
    async addHistory(trx: Kysely<DB>, rows: Insertable<LaterHistoryTable>[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx
          .insertInto('later_history')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
    },
    publications(examId: number) {
      return k.selectFrom('stage_publication').select(['stage', 'published_at']).where('exam_id', '=', examId).execute();
    },
    async publish(trx: Kysely<DB>, examId: number, stage: LaterStage, at: string): Promise<void> {
      await trx
        .insertInto('stage_publication')
        .values({ exam_id: examId, stage, published_at: at })
        .onConflict((oc) => oc.columns(['exam_id', 'stage']).doUpdateSet({ published_at: at }))
        .execute();
    },
    /** The candidate's application in the exam, if any. */
    myApplication(officeId: number, candidateId: number, examId: number) {
      return k
        .selectFrom('application')
        .select('id')
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
    },
  };
}

export type StagesRepository = ReturnType<typeof createStagesRepository>;
