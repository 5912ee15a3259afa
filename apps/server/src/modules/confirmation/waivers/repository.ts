import type { WaiverCategory, WaiverStatus } from '@zhikaoyun/shared';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { commitGroupFor, committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { DB } from '../../../db/schema';
import type { ApplicationScope } from '../../access/scope';

function unitCondition(unit: Expression<string | null>, scope: ApplicationScope): Expression<SqlBool> {
  if (scope.units.all) return sql<SqlBool>`1 = 1`;
  if (scope.units.units.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${unit} in (${sql.join([...scope.units.units])})`;
}

const SUMMARY = ['id', 'application_id', 'exam_id', 'office_id', 'category', 'status', 'reason', 'created_at', 'reviewed_at'] as const;

/** Fee-waiver requests and their proof. */
export function createWaiversRepository(db: Db) {
  const k = db.kysely;
  const commits = commitGroupFor(db);

  function inScope(scope: ApplicationScope) {
    return k
      .selectFrom('fee_waiver as w')
      .innerJoin('application as a', 'a.id', 'w.application_id')
      .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
      .leftJoin('position as p', 'p.id', 'a.position_id')
      .where('w.office_id', '=', scope.officeId)
      .where((eb) => unitCondition(eb.ref('p.unit'), scope));
  }

  return {
    commit: committer(db),
    latest(officeId: number, applicationId: number) {
      return k
        .selectFrom('fee_waiver')
        .select(SUMMARY)
        .where('office_id', '=', officeId)
        .where('application_id', '=', applicationId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
    },
    async insert(row: {
      officeId: number;
      examId: number;
      applicationId: number;
      category: WaiverCategory;
      mime: string;
      proof: Buffer;
      at: string;
    }): Promise<number> {
      return commits.run(async (trx) => {
        const r = await trx
          .insertInto('fee_waiver')
          .values({
            office_id: row.officeId,
            exam_id: row.examId,
            application_id: row.applicationId,
            category: row.category,
            status: 'pending',
            proof_mime: row.mime,
            proof: row.proof,
            reviewed_by: null,
            reviewed_at: null,
            created_at: row.at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return r.id;
      });
    },
    /** One waiver with its unit, whatever the scope (the caller checks it). */
    find(officeId: number, id: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('fee_waiver as w')
        .innerJoin('application as a', 'a.id', 'w.application_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select([
          'w.id',
          'w.application_id',
          'w.exam_id',
          'w.category',
          'w.status',
          'w.created_at',
          'a.status as application_status',
          'p.unit',
        ])
        .where('w.office_id', '=', officeId)
        .where('w.id', '=', id)
        .executeTakeFirst();
    },
    proof(officeId: number, id: number) {
      return k
        .selectFrom('fee_waiver')
        .select(['proof', 'proof_mime', 'application_id'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    /** pending → decided, once: false when someone decided it first. */
    async decide(
      trx: Kysely<DB>,
      id: number,
      to: Exclude<WaiverStatus, 'pending'>,
      reason: string,
      staffId: number,
      at: string,
    ): Promise<boolean> {
      const r = await trx
        .updateTable('fee_waiver')
        .set({ status: to, reason, reviewed_by: staffId, reviewed_at: at })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async list(scope: ApplicationScope, f: { examId: number; status?: WaiverStatus | undefined }, page: number, pageSize: number) {
      const filtered = () => {
        let q = inScope(scope).where('w.exam_id', '=', f.examId);
        if (f.status) q = q.where('w.status', '=', f.status);
        return q;
      };
      const [rows, count] = await Promise.all([
        filtered()
          .select([
            'w.id',
            'w.application_id',
            'w.category',
            'w.status',
            'w.reason',
            'w.proof_mime',
            'w.created_at',
            'w.reviewed_at',
            'c.name',
            'p.name as position_name',
            'p.unit',
          ])
          .orderBy('w.id', 'desc')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute(),
        filtered()
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(count.n) };
    },
  };
}
export type WaiversRepository = ReturnType<typeof createWaiversRepository>;
