import { SEATED_STATUSES } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import { committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { AdmissionTicketTable, DB } from '../../../db/schema';
import { seatRows } from '../arrangement/seat-rows';

const INSERT_CHUNK = 500;

/** The SQL of admission tickets. */
export function createTicketsRepository(db: Db) {
  const k = db.kysely;
  return {
    commit: committer(db),
    /** The exam with its ticket settings (code, template, rules, print window, when published). */
    examWithTicketSettings(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam')
        .select([
          'id',
          'name',
          'exam_code',
          'ticket_template',
          'exam_rules',
          'print_start',
          'print_end',
          'tickets_published_at',
          'confirmation_end',
        ])
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .executeTakeFirst();
    },
    /**
     * Each seated application's first sitting: the seat its ticket number is made of (one seat for
     * the whole exam). Only candidates still confirmed on a position that stands get a ticket.
     */
    firstSeats(officeId: number, examId: number, trx: Kysely<DB>) {
      return trx
        .selectFrom('exam_seat as s')
        .innerJoin('exam_site as si', 'si.id', 's.site_id')
        .innerJoin('exam_room as r', 'r.id', 's.room_id')
        .innerJoin('application as a', 'a.id', 's.application_id')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(['s.application_id', 's.sitting', 's.site_id', 's.room_id', 's.seat', 'si.code as site_code', 'r.code as room_code'])
        .where('s.office_id', '=', officeId)
        .where('s.exam_id', '=', examId)
        .where('a.status', 'in', SEATED_STATUSES)
        .where('p.cancelled_at', 'is', null)
        .orderBy('s.application_id')
        .orderBy('s.sitting')
        .execute();
    },
    async insertTickets(trx: Kysely<DB>, rows: AdmissionTicketTable[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx
          .insertInto('admission_ticket')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
    },
    async publish(trx: Kysely<DB>, examId: number, printStart: string, printEnd: string, at: string): Promise<void> {
      await trx
        .updateTable('exam')
        .set((eb) => ({
          print_start: printStart,
          print_end: printEnd,
          tickets_published_at: eb.fn.coalesce('tickets_published_at', eb.val(at)),
        }))
        .where('id', '=', examId)
        .execute();
    },
    /** A ticket with what it prints: the candidate, the site and room. */
    /**
     * The candidate's application first, by its unique (exam, candidate) index, then the ticket by
     * its key: joined the other way round the planner walked the exam's every ticket.
     */
    async ticketByApplication(officeId: number, examId: number, candidateId: number) {
      const app = await k
        .selectFrom('application')
        .select('id')
        .where('exam_id', '=', examId)
        .where('candidate_id', '=', candidateId)
        .where('office_id', '=', officeId)
        .executeTakeFirst();
      if (!app) return undefined;
      return ticketQuery(k).where('t.application_id', '=', app.id).where('t.office_id', '=', officeId).executeTakeFirst();
    },
    /** The ticket's first download (the reminder to print it stops); a later one changes nothing. */
    async markDownloaded(applicationId: number, at: string): Promise<void> {
      await k
        .updateTable('admission_ticket')
        .set({ downloaded_at: at })
        .where('application_id', '=', applicationId)
        .where('downloaded_at', 'is', null)
        .execute();
    },
    ticketByNo(officeId: number, ticketNo: string) {
      return ticketQuery(k).where('t.office_id', '=', officeId).where('t.ticket_no', '=', ticketNo).executeTakeFirst();
    },
    /** An application's seats in an exam, one per sitting. */
    seatsOf(officeId: number, examId: number, applicationId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam_seat as s')
        .innerJoin('exam_room as r', 'r.id', 's.room_id')
        .select(['s.id', 's.sitting', 's.subject_id', 's.room_id', 's.seat', 'r.code as room_code'])
        .where('s.office_id', '=', officeId)
        .where('s.exam_id', '=', examId)
        .where('s.application_id', '=', applicationId)
        .orderBy('s.sitting')
        .execute();
    },
    /** The papers others sit in a room at a sitting. */
    async papersInRoom(trx: Kysely<DB>, examId: number, sitting: string, roomId: number, exceptApplicationId: number) {
      const rows = await trx
        .selectFrom('exam_seat')
        .select('subject_id')
        .distinct()
        .where('exam_id', '=', examId)
        .where('sitting', '=', sitting)
        .where('room_id', '=', roomId)
        .where('application_id', '!=', exceptApplicationId)
        .execute();
      return rows.map((r) => r.subject_id);
    },
    async moveSeat(trx: Kysely<DB>, seatId: number, to: { site_id: number; room_id: number; seat: number }): Promise<void> {
      await trx.updateTable('exam_seat').set(to).where('id', '=', seatId).execute();
    },
    /** The ticket's printed place follows its first sitting; its number never changes. */
    async syncTicketPlace(trx: Kysely<DB>, applicationId: number, at: string): Promise<void> {
      const first = await trx
        .selectFrom('exam_seat')
        .select(['site_id', 'room_id', 'seat'])
        .where('application_id', '=', applicationId)
        .orderBy('sitting')
        .limit(1)
        .executeTakeFirst();
      if (first)
        await trx
          .updateTable('admission_ticket')
          .set({ ...first, updated_at: at })
          .where('application_id', '=', applicationId)
          .execute();
    },
    async ticketNoOf(trx: Kysely<DB>, applicationId: number): Promise<string | undefined> {
      const r = await trx.selectFrom('admission_ticket').select('ticket_no').where('application_id', '=', applicationId).executeTakeFirst();
      return r?.ticket_no;
    },
    site(officeId: number, examId: number, siteId: number) {
      return k
        .selectFrom('exam_site')
        .select(['id', 'code', 'name', 'address'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('id', '=', siteId)
        .executeTakeFirst();
    },
    /** A site's seats (or one room's) with who sits there, by room, sitting and seat. */
    roomSeats(officeId: number, examId: number, siteId: number, roomId: number | undefined) {
      let q = seatRows(k)
        .select([
          's.room_id',
          'r.code as room',
          's.sitting',
          'j.name as subject',
          'j.start_at',
          'j.end_at',
          's.seat',
          't.ticket_no',
          'a.candidate_id',
          'c.name',
          'c.photo_id',
        ])
        .where('s.office_id', '=', officeId)
        .where('s.exam_id', '=', examId)
        .where('s.site_id', '=', siteId)
        // Who is expected at the door: confirmed, on a position close-out kept.
        .where('a.status', 'in', SEATED_STATUSES)
        .where('p.cancelled_at', 'is', null);
      if (roomId !== undefined) q = q.where('s.room_id', '=', roomId);
      return q.orderBy('r.code').orderBy('s.sitting').orderBy('s.seat').execute();
    },
    /** Every seat of an exam with its candidate, position and ticket number, for the export. */
    arrangementRows(officeId: number, examId: number) {
      return (
        seatRows(k)
          .select([
            'si.code as site_code',
            'si.name as site',
            'r.code as room',
            's.seat',
            't.ticket_no',
            'a.candidate_id',
            'c.name',
            'p.code as position_code',
            'p.name as position',
            'j.name as subject',
            'j.start_at',
          ])
          .where('s.office_id', '=', officeId)
          .where('s.exam_id', '=', examId)
          // As the sign-in sheets: only who is expected at the door.
          .where('a.status', 'in', SEATED_STATUSES)
          .where('p.cancelled_at', 'is', null)
          .orderBy('si.code')
          .orderBy('s.sitting')
          .orderBy('r.code')
          .orderBy('s.seat')
          .execute()
      );
    },
    /**
     * A door check's record for one ticket and paper: the first check inserts it, every later one
     * counts up (one statement, so two doors scanning at once still count two). Answers the first
     * check's time and how many checks there have been.
     */
    async checkIn(row: {
      office_id: number;
      exam_id: number;
      application_id: number;
      ticket_no: string;
      subject_id: number;
      staff_id: number;
      at: string;
    }): Promise<{ firstAt: string; count: number }> {
      const { at, ...rest } = row;
      const r = await k
        .insertInto('ticket_check_in')
        .values({ ...rest, first_at: at, last_at: at, count: 1 })
        .onConflict((oc) =>
          oc.columns(['application_id', 'subject_id']).doUpdateSet((eb) => ({
            count: eb('ticket_check_in.count', '+', 1),
            last_at: eb.ref('excluded.last_at'),
          })),
        )
        .returning(['first_at', 'count'])
        .executeTakeFirstOrThrow();
      return { firstAt: r.first_at, count: Number(r.count) };
    },
    /**
     * The papers' times of the office's exams with tickets published, on the site (an exam taken
     * off it is not being held): where a door check opens.
     */
    doorCheckPapers(officeId: number) {
      return k
        .selectFrom('exam as e')
        .innerJoin('exam_subject as j', 'j.exam_id', 'e.id')
        .select(['e.id as exam_id', 'j.start_at', 'j.end_at'])
        .where('e.office_id', '=', officeId)
        .where('e.tickets_published_at', 'is not', null)
        .where('e.published', '=', 1)
        .orderBy('j.start_at')
        .execute();
    },
    subjectsOf(applicationId: number) {
      return k
        .selectFrom('exam_seat as s')
        .innerJoin('exam_subject as j', 'j.id', 's.subject_id')
        .innerJoin('exam_room as r', 'r.id', 's.room_id')
        .select(['j.id', 'j.name', 'j.start_at', 'j.end_at', 'r.code as room_code', 's.seat'])
        .where('s.application_id', '=', applicationId)
        .orderBy('j.start_at')
        .execute();
    },
  };
}

function ticketQuery(k: Kysely<DB>) {
  return k
    .selectFrom('admission_ticket as t')
    .innerJoin('application as a', 'a.id', 't.application_id')
    .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
    .innerJoin('exam_site as si', 'si.id', 't.site_id')
    .innerJoin('exam_room as r', 'r.id', 't.room_id')
    .leftJoin('position as p', 'p.id', 'a.position_id')
    .select([
      'p.unit',
      't.application_id',
      'a.candidate_id',
      't.exam_id',
      't.ticket_no',
      't.seat',
      'a.status',
      'c.name',
      'c.sex',
      'c.photo_id',
      'c.idno_enc',
      'si.name as site',
      'si.address',
      'r.code as room',
    ]);
}

export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
