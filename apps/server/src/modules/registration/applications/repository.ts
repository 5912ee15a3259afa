import {
  applicationNumber,
  CANDIDATE_EDITABLE_STATUSES,
  DEFAULT_TIME_ZONE,
  zonedDateTime,
  type ApplicationStatus,
  type HistoryActor,
} from '@zhikaoyun/shared';
import { sql, type Kysely, type Selectable } from 'kysely';
import { commitGroupFor, committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import { param, prepare } from '../../../db/prepared';
import type { ApplicationHistoryTable, DB } from '../../../db/schema';

const COLUMNS = [
  'id',
  'exam_id',
  'candidate_id',
  'position_id',
  'status',
  'form',
  'version',
  'reason',
  'submitted_at',
  'updated_at',
  'application_no',
] as const;

/** The moment a transition records beside the status (see `stamps` in the lifecycle). */
export type TransitionStamp = 'none' | 'submittedAt' | 'reviewedAt';

export type HistoryEntryRow = Omit<Selectable<ApplicationHistoryTable>, 'id'>;

/**
 * The application's SQL. Status is written here only by `moveStatus` and `insertApplication`,
 * which modules/registration/applications/lifecycle.ts calls after the lifecycle allowed the step.
 */
/** Applications with the exam they belong to (`e`) and the position they name, if any (`p`). */
export const withExamAndPosition = (k: Kysely<DB>) =>
  k.selectFrom('application as a').innerJoin('exam as e', 'e.id', 'a.exam_id').leftJoin('position as p', 'p.id', 'a.position_id');

/**
 * Gives the application its 报名号 unless it has one (a resubmit keeps the first), in the caller's
 * transaction: the exam's next running number, then the number on the application. Called as
 * the last write of a submit, so that on PostgreSQL the exam's counter row is held only for the
 * commit (concurrent submits of one exam queue there, not across the whole step).
 */
export async function assignApplicationNo(trx: Kysely<DB>, applicationId: number): Promise<string | null> {
  const a = await trx
    .selectFrom('application as a')
    .innerJoin('exam as e', 'e.id', 'a.exam_id')
    .select(['a.application_no', 'a.exam_id', 'e.exam_code', 'e.registration_start'])
    .where('a.id', '=', applicationId)
    .executeTakeFirst();
  if (!a) return null;
  if (a.application_no !== null) return a.application_no;
  const { last } = await trx
    .insertInto('application_no_seq')
    .values({ exam_id: a.exam_id, last: 1 })
    .onConflict((oc) => oc.column('exam_id').doUpdateSet({ last: sql<number>`application_no_seq.last + 1` }))
    .returning('last')
    .executeTakeFirstOrThrow();
  const year = Number(zonedDateTime(a.registration_start, DEFAULT_TIME_ZONE).slice(0, 4));
  const no = applicationNumber(year, a.exam_code, last);
  await trx.updateTable('application').set({ application_no: no }).where('id', '=', applicationId).execute();
  return no;
}

export function createApplicationsRepository(db: Db) {
  // Every write goes through the group commit: durable when acknowledged, one fsync for many.
  const commits = commitGroupFor(db);
  const k = db.kysely;

  // The reads every candidate call makes, prepared once (Kysely would rebuild and recompile the
  // same SQL on each call; a third of a submit's time went there).
  const byCandidate = prepare(db, { officeId: param<number>(), examId: param<number>(), candidateId: param<number>() }, (p) =>
    k
      .selectFrom('application')
      .select(COLUMNS)
      .where('office_id', '=', p.officeId)
      .where('exam_id', '=', p.examId)
      .where('candidate_id', '=', p.candidateId),
  );
  const byId = prepare(db, { officeId: param<number>(), id: param<number>() }, (p) =>
    k.selectFrom('application').select(COLUMNS).where('office_id', '=', p.officeId).where('id', '=', p.id),
  );
  const historyOf = prepare(db, { applicationId: param<number>() }, (p) =>
    k
      .selectFrom('application_history')
      .select(['status', 'reason', 'actor', 'at'])
      .where('application_id', '=', p.applicationId)
      .orderBy('id'),
  );
  const addHistory = prepare(
    db,
    {
      applicationId: param<number>(),
      status: param<ApplicationStatus>(),
      reason: param<string>(),
      actor: param<HistoryActor>(),
      actorId: param<number | null>(),
      at: param<string>(),
    },
    (p) =>
      k.insertInto('application_history').values({
        application_id: p.applicationId,
        status: p.status,
        reason: p.reason,
        actor: p.actor,
        actor_id: p.actorId,
        at: p.at,
      }),
  );
  // A form is saved only while the lifecycle leaves it to the candidate, and (when the caller
  // names one) only onto the version it was based on; every save raises the version.
  // RETURNING: no second read.
  const saveDeclared = {
    officeId: param<number>(),
    id: param<number>(),
    form: param<string>(),
    positionId: param<number | null>(),
    at: param<string>(),
  };
  const saveQuery = (p: { officeId: number; id: number; form: string; positionId: number | null; at: string }) =>
    k
      .updateTable('application')
      .set((eb) => ({ form: p.form, position_id: p.positionId, updated_at: p.at, version: eb('version', '+', 1) }))
      .where('office_id', '=', p.officeId)
      .where('id', '=', p.id)
      .where('status', 'in', [...CANDIDATE_EDITABLE_STATUSES]);
  const saveFormAny = prepare(db, saveDeclared, (p) => saveQuery(p).returning(COLUMNS));
  const saveFormOnto = prepare(db, { ...saveDeclared, version: param<number>() }, (p) =>
    saveQuery(p).where('version', '=', p.version).returning(COLUMNS),
  );
  // The conditional update that makes a doubled or concurrent step change the application once:
  // it moves only from the very status the lifecycle judged (and, for a submit, only the very
  // version of the form the candidate confirmed).
  const moveDeclared = {
    officeId: param<number>(),
    id: param<number>(),
    from: param<ApplicationStatus>(),
    to: param<ApplicationStatus>(),
    reason: param<string>(),
    at: param<string>(),
  };
  type MoveValues = { officeId: number; id: number; from: ApplicationStatus; to: ApplicationStatus; reason: string; at: string };
  const moveQuery = (stamp: TransitionStamp, p: { [K in keyof MoveValues]: MoveValues[K] }) =>
    k
      .updateTable('application')
      .set({
        status: p.to,
        reason: p.reason,
        updated_at: p.at,
        ...(stamp === 'submittedAt' ? { submitted_at: p.at } : stamp === 'reviewedAt' ? { reviewed_at: p.at } : {}),
      })
      .where('office_id', '=', p.officeId)
      .where('id', '=', p.id)
      .where('status', '=', p.from);
  type Move = (values: MoveValues, version: number | undefined, trx: Kysely<DB>) => Promise<number>;
  const move = (stamp: TransitionStamp): Move => {
    const any = prepare(db, moveDeclared, (p) => moveQuery(stamp, p));
    const pinned = prepare(db, { ...moveDeclared, version: param<number>() }, (p) => moveQuery(stamp, p).where('version', '=', p.version));
    return (values, version, trx) => (version === undefined ? any.run(values, trx) : pinned.run({ ...values, version }, trx));
  };
  const moves: Record<TransitionStamp, Move> = {
    none: move('none'),
    submittedAt: move('submittedAt'),
    reviewedAt: move('reviewedAt'),
  };

  // The candidate's applications, newest first, with the exam and position they name.
  const mine = prepare(db, { officeId: param<number>(), candidateId: param<number>() }, (p) =>
    withExamAndPosition(k)
      // Its admission ticket, once issued: the exam card then leads to printing it.
      .leftJoin('admission_ticket as t', 't.application_id', 'a.id')
      .select([
        'a.id',
        'a.exam_id',
        'a.status',
        'a.form',
        'a.version',
        'a.reason',
        'a.submitted_at',
        'a.updated_at',
        'a.position_id',
        'a.application_no',
        'p.code as position_code',
        'p.name as position_name',
        'p.unit as position_unit',
        'p.cancelled_at as position_cancelled_at',
        'e.published as exam_published',
        'e.tickets_published_at',
        'e.print_start',
        'e.print_end',
        't.application_id as ticket_of',
      ])
      .where('a.office_id', '=', p.officeId)
      .where('a.candidate_id', '=', p.candidateId)
      .orderBy('a.updated_at', 'desc')
      .orderBy('a.id', 'desc'),
  );

  return {
    findByCandidate(officeId: number, examId: number, candidateId: number) {
      return byCandidate.first({ officeId, examId, candidateId });
    },
    findById(officeId: number, id: number) {
      return byId.first({ officeId, id });
    },
    history(applicationId: number) {
      return historyOf.all({ applicationId });
    },
    /**
     * The form as saved, or undefined when the application is no longer the candidate's to change
     * or (`version` given) no longer at that version.
     */
    saveForm(officeId: number, id: number, fields: { form: string; positionId: number | null; at: string; version?: number | undefined }) {
      const { version, ...rest } = fields;
      return commits.run(async (trx) =>
        version === undefined
          ? (await saveFormAny.all({ officeId, id, ...rest }, trx))[0]
          : (await saveFormOnto.all({ officeId, id, ...rest, version }, trx))[0],
      );
    },
    /** The candidate's applications, newest first, with their exam's publication and their position. */
    mine(officeId: number, candidateId: number) {
      return mine.all({ officeId, candidateId });
    },

    /** Runs `work` in one transaction (on SQLite in the group commit): it must use only `trx`. */
    commit: committer(db),
    async insertApplication(
      trx: Kysely<DB>,
      row: {
        officeId: number;
        examId: number;
        candidateId: number;
        positionId: number | null;
        status: ApplicationStatus;
        form: string;
        at: string;
      },
    ): Promise<number> {
      const r = await trx
        .insertInto('application')
        .values({
          office_id: row.officeId,
          exam_id: row.examId,
          candidate_id: row.candidateId,
          position_id: row.positionId,
          status: row.status,
          form: row.form,
          reason: '',
          created_at: row.at,
          updated_at: row.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    /** False when the application is no longer in `from` (another request moved it first). */
    async moveStatus(
      trx: Kysely<DB>,
      m: {
        officeId: number;
        id: number;
        from: ApplicationStatus;
        to: ApplicationStatus;
        reason: string;
        at: string;
        stamp: TransitionStamp;
        /** Moves only the form at this version (a submit of what the candidate confirmed). */
        version?: number | undefined;
      },
    ): Promise<boolean> {
      const { stamp, version, ...values } = m;
      return (await moves[stamp](values, version, trx)) === 1;
    },
    /**
     * Moves the applications of `ids` still in one of `from` to `to` in one statement; answers
     * the ids it moved (the others moved first by someone else, or were never in `from`).
     */
    async moveMany(
      trx: Kysely<DB>,
      m: {
        officeId: number;
        ids: readonly number[];
        from: readonly ApplicationStatus[];
        to: ApplicationStatus;
        reason: string;
        at: string;
        stamp: TransitionStamp;
      },
    ): Promise<number[]> {
      if (m.ids.length === 0) return [];
      const rows = await trx
        .updateTable('application')
        .set({
          status: m.to,
          reason: m.reason,
          updated_at: m.at,
          ...(m.stamp === 'submittedAt' ? { submitted_at: m.at } : m.stamp === 'reviewedAt' ? { reviewed_at: m.at } : {}),
        })
        // By primary key, the office checked on each row (the unary plus keeps SQLite's
        // planner from walking the office's index instead of looking the ids up).
        .where(sql<number>`+office_id`, '=', m.officeId)
        .where('id', 'in', [...m.ids])
        .where('status', 'in', [...m.from])
        .returning('id')
        .execute();
      return rows.map((r) => r.id).sort((a, b) => a - b);
    },
    async addHistoryMany(trx: Kysely<DB>, entries: readonly HistoryEntryRow[]): Promise<void> {
      if (entries.length === 0) return;
      await trx
        .insertInto('application_history')
        .values([...entries])
        .execute();
    },
    async addHistory(trx: Kysely<DB>, entry: HistoryEntryRow): Promise<void> {
      await addHistory.run(
        {
          applicationId: entry.application_id,
          status: entry.status,
          reason: entry.reason,
          actor: entry.actor,
          actorId: entry.actor_id,
          at: entry.at,
        },
        trx,
      );
    },
  };
}
export type ApplicationsRepository = ReturnType<typeof createApplicationsRepository>;
export type ApplicationRow = NonNullable<Awaited<ReturnType<ApplicationsRepository['findById']>>>;
