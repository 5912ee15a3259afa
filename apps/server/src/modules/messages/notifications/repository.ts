import type { ApplicationStatus, NotificationKind } from '@zhikaoyun/shared';
import { sql, type Kysely, type Selectable } from 'kysely';
import { commitGroupFor } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { AnnouncementTable, DB, MessageTable } from '../../../db/schema';
import { smsKeySql } from '../sms/repository';

export type NewMessage = Omit<Selectable<MessageTable>, 'id' | 'read_at'>;

/** Which applications of an exam a message to many reaches. */
export interface AudienceFilter {
  officeId: number;
  examId: number;
  /** All of them, or those in these statuses. */
  statuses: readonly ApplicationStatus[] | 'all';
  /** Only those holding an admission ticket of the exam, once the exam's tickets are published. */
  ticket?: boolean | undefined;
  /** Only those of this position. */
  positionId?: number | undefined;
  /** Only those who paid the fee online (true), or only those who did not (false: waived or free). */
  paid?: boolean | undefined;
}

/** The inbox, the office's message settings and announcements: this module's SQL. */
export function createNotificationsRepository(db: Db) {
  const k = db.kysely;

  function audienceQuery(q: Kysely<DB>, f: AudienceFilter) {
    let query = q.selectFrom('application as a').where('a.office_id', '=', f.officeId).where('a.exam_id', '=', f.examId);
    if (f.statuses !== 'all') {
      // No status of the audience exists (yet): nobody, rather than an empty IN list.
      query = f.statuses.length > 0 ? query.where('a.status', 'in', f.statuses) : query.where(sql<boolean>`1 = 0`);
    }
    if (f.positionId !== undefined) query = query.where('a.position_id', '=', f.positionId);
    if (f.paid !== undefined) {
      const wantPaid = f.paid;
      query = query.where((eb) => {
        const paid = eb.exists(
          eb
            .selectFrom('payment_order as po')
            .select('po.id')
            .whereRef('po.application_id', '=', 'a.id')
            .where('po.paid_at', 'is not', null),
        );
        return wantPaid ? paid : eb.not(paid);
      });
    }
    if (f.ticket) {
      query = query
        .where((eb) =>
          eb.exists(eb.selectFrom('admission_ticket as t').select('t.application_id').whereRef('t.application_id', '=', 'a.id')),
        )
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('exam as te')
              .select('te.id')
              .whereRef('te.id', '=', 'a.exam_id')
              .where('te.tickets_published_at', 'is not', null),
          ),
        );
    }
    return query;
  }

  return {
    commit<T>(work: (trx: Kysely<DB>) => Promise<T>) {
      return commitGroupFor(db).run(work);
    },

    /** Whom a step of an application tells, and the office's settings, read in the step's transaction. */
    recipient(trx: Kysely<DB>, officeId: number, applicationId: number) {
      return trx
        .selectFrom('application as a')
        .innerJoin('exam as e', 'e.id', 'a.exam_id')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .innerJoin('office as o', 'o.id', 'a.office_id')
        .leftJoin('notification_setting as s', 's.office_id', 'a.office_id')
        .select(['a.candidate_id', 'a.exam_id', 'e.name as exam_name', 'c.mobile', 's.settings', 'o.settings as office_settings'])
        .where('a.id', '=', applicationId)
        .where('a.office_id', '=', officeId)
        .executeTakeFirst();
    },

    /** An office's message settings and wall clock, read in the step's transaction. */
    officeContext(trx: Kysely<DB>, officeId: number) {
      return trx
        .selectFrom('office as o')
        .leftJoin('notification_setting as s', 's.office_id', 'o.id')
        .select(['s.settings', 'o.settings as office_settings'])
        .where('o.id', '=', officeId)
        .executeTakeFirst();
    },

    async insertMessage(trx: Kysely<DB>, row: NewMessage): Promise<number> {
      const r = await trx.insertInto('message').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },

    async page(officeId: number, candidateId: number, offset: number, limit: number) {
      const base = k.selectFrom('message').where('office_id', '=', officeId).where('candidate_id', '=', candidateId);
      const [rows, counts] = await Promise.all([
        base.select(['id', 'title', 'content', 'created_at', 'read_at']).orderBy('id', 'desc').limit(limit).offset(offset).execute(),
        base
          .select((eb) => [
            eb.fn.countAll<number | string>().as('total'),
            eb.fn.count<number | string>(sql`case when read_at is null then 1 end`).as('unread'),
          ])
          .executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(counts.total), unread: Number(counts.unread) };
    },

    async unread(officeId: number, candidateId: number): Promise<number> {
      const r = await k
        .selectFrom('message')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Marks one message (or all of them) read; answers how many changed. */
    async markRead(officeId: number, candidateId: number, id: number | readonly number[] | 'all', at: string): Promise<number> {
      let q = k
        .updateTable('message')
        .set({ read_at: at })
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('read_at', 'is', null);
      if (typeof id === 'number') q = q.where('id', '=', id);
      else if (id !== 'all') q = q.where('id', 'in', [...id]);
      const r = await q.executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    async messageExists(officeId: number, candidateId: number, id: number): Promise<boolean> {
      const r = await k
        .selectFrom('message')
        .select('id')
        .where('office_id', '=', officeId)
        .where('candidate_id', '=', candidateId)
        .where('id', '=', id)
        .executeTakeFirst();
      return r !== undefined;
    },

    async settings(officeId: number): Promise<string | undefined> {
      const r = await k.selectFrom('notification_setting').select('settings').where('office_id', '=', officeId).executeTakeFirst();
      return r?.settings;
    },

    async saveSettings(trx: Kysely<DB>, officeId: number, settings: string, at: string): Promise<void> {
      await trx
        .insertInto('notification_setting')
        .values({ office_id: officeId, settings, updated_at: at })
        .onConflict((oc) => oc.column('office_id').doUpdateSet({ settings, updated_at: at }))
        .execute();
    },

    async countAudience(f: AudienceFilter): Promise<{ recipients: number; withMobile: number }> {
      const r = await audienceQuery(k, f)
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('recipients'),
          eb.fn.count<number | string>(sql`case when c.mobile <> '' then 1 end`).as('with_mobile'),
        ])
        .executeTakeFirstOrThrow();
      return { recipients: Number(r.recipients), withMobile: Number(r.with_mobile) };
    },

    /**
     * One message (an announcement, tickets published, a position cancelled) to its whole
     * audience in one statement per table (an office's largest exam is a few hundred thousand
     * applications: row by row from here would take minutes).
     */
    async fanOut(
      trx: Kysely<DB>,
      f: AudienceFilter,
      m: { kind: NotificationKind; title: string; content: string; at: string },
      sms: { params: string; text: string } | null,
    ): Promise<{ recipients: number; sms: number }> {
      const text = (v: string) => sql<string>`cast(${v} as text)`;
      const inserted = await trx
        .insertInto('message')
        .columns(['office_id', 'candidate_id', 'kind', 'application_id', 'exam_id', 'title', 'content', 'created_at'])
        .expression(
          audienceQuery(trx, f).select([
            'a.office_id',
            'a.candidate_id',
            text(m.kind).as('kind'),
            'a.id',
            'a.exam_id',
            text(m.title).as('title'),
            text(m.content).as('content'),
            text(m.at).as('created_at'),
          ]),
        )
        .executeTakeFirst();
      let smsCount = 0;
      if (sms) {
        const queued = await trx
          .insertInto('sms_outbox')
          .columns([
            'office_id',
            'candidate_id',
            'kind',
            'mobile',
            'params',
            'text',
            'idem_key',
            'status',
            'attempts',
            'next_attempt_at',
            'created_at',
          ])
          .expression(
            audienceQuery(trx, f)
              .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
              .where('c.mobile', '<>', '')
              .select([
                'a.office_id',
                'a.candidate_id',
                text(m.kind).as('kind'),
                'c.mobile',
                text(sms.params).as('params'),
                text(sms.text).as('text'),
                smsKeySql(db.dialect).as('idem_key'),
                text('pending').as('status'),
                sql<number>`0`.as('attempts'),
                text(m.at).as('next_attempt_at'),
                text(m.at).as('created_at'),
              ]),
          )
          .executeTakeFirst();
        smsCount = Number(queued.numInsertedOrUpdatedRows ?? 0);
      }
      return { recipients: Number(inserted.numInsertedOrUpdatedRows ?? 0), sms: smsCount };
    },

    async insertAnnouncement(trx: Kysely<DB>, row: Omit<Selectable<AnnouncementTable>, 'id'>): Promise<number> {
      const r = await trx.insertInto('announcement').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
