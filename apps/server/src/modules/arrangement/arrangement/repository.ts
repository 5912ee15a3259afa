import { SEATED_STATUSES } from '@zhikaoyun/shared';
import { sql, type Kysely, type Selectable } from 'kysely';
import { deleteInChunks } from '../../../db/chunked-delete';
import { committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import type { AdmissionTicketTable, DB, ExamSeatTable } from '../../../db/schema';
import { breathe, type RowSource } from '../../../lib/row-source';
import { seatRows } from './seat-rows';

/** A seat as the arrangement writes it: the table's row without its id and scope. */
export type SeatRow = Omit<Selectable<ExamSeatTable>, 'id' | 'office_id' | 'exam_id'>;

// 9 parameters a row: under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
const INSERT_CHUNK = 3000;
/** PostgreSQL: seats per insert … select from unnest(arrays). */
const UNNEST_CHUNK = 20_000;

/** The SQL of subjects, sites, rooms and seats. */
export function createArrangementRepository(db: Db) {
  const k = db.kysely;
  return {
    commit: committer(db),
    exam(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam')
        .select(['id', 'tickets_published_at', 'arrangement_seed', 'site_city_choice', 'switch_end'])
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .executeTakeFirst();
    },
    subjects(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam_subject')
        .select(['id', 'name', 'start_at', 'end_at'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .orderBy('start_at')
        .orderBy('id')
        .execute();
    },
    subject(officeId: number, id: number) {
      return k
        .selectFrom('exam_subject')
        .select(['id', 'exam_id'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    async insertSubject(row: { office_id: number; exam_id: number; name: string; start_at: string; end_at: string; at: string }) {
      const { at, ...rest } = row;
      const r = await k
        .insertInto('exam_subject')
        .values({ ...rest, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    async updateSubject(id: number, v: { name: string; start_at: string; end_at: string; at: string }) {
      await k
        .updateTable('exam_subject')
        .set({ name: v.name, start_at: v.start_at, end_at: v.end_at, updated_at: v.at })
        .where('id', '=', id)
        .execute();
    },
    sites(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam_site')
        .select(['id', 'code', 'name', 'address', 'city'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .orderBy('code')
        .execute();
    },
    site(officeId: number, id: number) {
      return k
        .selectFrom('exam_site')
        .select(['id', 'exam_id', 'code'])
        .where('office_id', '=', officeId)
        .where('id', '=', id)
        .executeTakeFirst();
    },
    rooms(officeId: number, examId: number, trx: Kysely<DB> = k) {
      return trx
        .selectFrom('exam_room as r')
        .innerJoin('exam_site as s', 's.id', 'r.site_id')
        .select(['r.id', 'r.site_id', 'r.code', 'r.seats', 's.code as site_code', 's.city'])
        .where('r.office_id', '=', officeId)
        .where('r.exam_id', '=', examId)
        .orderBy('s.code')
        .orderBy('r.code')
        .execute();
    },
    /** A new site with its rooms, or an edited one with its rooms replaced (only before arrangement). */
    async saveSite(
      trx: Kysely<DB>,
      v: {
        officeId: number;
        examId: number;
        id?: number;
        name: string;
        address: string;
        city: string;
        rooms: number;
        seatsPerRoom: number;
        at: string;
      },
    ): Promise<number> {
      let id = v.id;
      if (id === undefined) {
        const last = await trx
          .selectFrom('exam_site')
          .select(sql<string | null>`max(code)`.as('code'))
          .where('exam_id', '=', v.examId)
          .executeTakeFirst();
        const code = String(Number(last?.code ?? 0) + 1).padStart(2, '0');
        const r = await trx
          .insertInto('exam_site')
          .values({
            office_id: v.officeId,
            exam_id: v.examId,
            code,
            name: v.name,
            address: v.address,
            city: v.city,
            created_at: v.at,
            updated_at: v.at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        id = r.id;
      } else {
        await trx
          .updateTable('exam_site')
          .set({ name: v.name, address: v.address, city: v.city, updated_at: v.at })
          .where('id', '=', id)
          .execute();
        await trx.deleteFrom('exam_room').where('site_id', '=', id).execute();
      }
      const siteId = id;
      await trx
        .insertInto('exam_room')
        .values(
          Array.from({ length: v.rooms }, (_, i) => ({
            office_id: v.officeId,
            exam_id: v.examId,
            site_id: siteId,
            code: String(i + 1).padStart(2, '0'),
            seats: v.seatsPerRoom,
          })),
        )
        .execute();
      return siteId;
    },
    room(officeId: number, roomId: number) {
      return k
        .selectFrom('exam_room')
        .select(['id', 'exam_id', 'site_id', 'code', 'seats'])
        .where('office_id', '=', officeId)
        .where('id', '=', roomId)
        .executeTakeFirst();
    },
    /** The highest seat number given in a room (0: none). */
    async highestSeat(roomId: number): Promise<number> {
      const r = await k
        .selectFrom('exam_seat')
        .select(sql<number | null>`max(seat)`.as('n'))
        .where('room_id', '=', roomId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async setRoomSeats(roomId: number, seats: number): Promise<void> {
      await k.updateTable('exam_room').set({ seats }).where('id', '=', roomId).execute();
    },
    /** Candidates seated per room (each counted once however many sittings). */
    seatedPerRoom(officeId: number, examId: number) {
      return k
        .selectFrom('exam_seat')
        .select(['room_id', sql<number>`count(distinct application_id)`.as('n')])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .groupBy('room_id')
        .execute();
    },
    async seatedCandidates(officeId: number, examId: number): Promise<number> {
      const r = await k
        .selectFrom('exam_seat')
        .select(sql<number>`count(distinct application_id)`.as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /**
     * Confirmed candidates on a position that stands who hold a seat (before publishing) or a
     * ticket (after): whoever confirmed or switched later holds neither and is counted apart.
     */
    async confirmedPlaced(officeId: number, examId: number, by: 'seat' | 'ticket'): Promise<number> {
      const r = await k
        .selectFrom('application as a')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('a.office_id', '=', officeId)
        .where('a.exam_id', '=', examId)
        .where('a.status', 'in', SEATED_STATUSES)
        .where('p.cancelled_at', 'is', null)
        .where((eb) =>
          eb.exists(
            by === 'seat'
              ? eb.selectFrom('exam_seat as s').select('s.id').whereRef('s.application_id', '=', 'a.id')
              : eb.selectFrom('admission_ticket as t').select('t.application_id').whereRef('t.application_id', '=', 'a.id'),
          ),
        )
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    /** Seats of applications that hold no ticket (seated, then their position was cancelled): 补排 gives them anew. */
    async dropUnticketedSeats(trx: Kysely<DB>, officeId: number, examId: number, applicationIds: readonly number[]): Promise<void> {
      if (applicationIds.length === 0) return;
      await trx
        .deleteFrom('exam_seat')
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('application_id', 'in', applicationIds)
        .execute();
    },
    async confirmedCount(officeId: number, examId: number): Promise<number> {
      const r = await k
        .selectFrom('application')
        .select(sql<number>`count(*)`.as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .where('status', 'in', SEATED_STATUSES)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    ticketSettings(officeId: number, examId: number) {
      return k
        .selectFrom('exam')
        .select(['exam_code', 'ticket_template', 'tickets_published_at', 'print_start', 'print_end', 'arrangement_seed', 'switch_end'])
        .where('office_id', '=', officeId)
        .where('id', '=', examId)
        .executeTakeFirst();
    },
    /**
     * Confirmed applications of an exam with the subjects their position sits (none listed: all),
     * less those whose position close-out cancelled: they switch, opt out or are refunded when the
     * switch window closes, and are seated only once they sit a position that stands.
     */
    async confirmed(officeId: number, examId: number, trx: Kysely<DB> = k) {
      const apps = await trx
        .selectFrom('application as a')
        .leftJoin('position as p', 'p.id', 'a.position_id')
        .select(['a.id', 'a.position_id', 'a.site_city'])
        .where('a.office_id', '=', officeId)
        .where('a.exam_id', '=', examId)
        .where('a.status', 'in', SEATED_STATUSES)
        .where('p.cancelled_at', 'is', null)
        .orderBy('a.id')
        .execute();
      const links = await trx
        .selectFrom('position_subject as ps')
        .innerJoin('position as p', 'p.id', 'ps.position_id')
        .select(['ps.position_id', 'ps.subject_id'])
        .where('p.exam_id', '=', examId)
        .execute();
      return { apps, links };
    },
    /** Confirmed candidates whose position was cancelled at close-out (not yet switched, opted out or refunded). */
    async awaitingSwitch(officeId: number, examId: number, trx: Kysely<DB> = k): Promise<number> {
      const r = await trx
        .selectFrom('application as a')
        .innerJoin('position as p', 'p.id', 'a.position_id')
        .select(sql<number>`count(*)`.as('n'))
        .where('a.office_id', '=', officeId)
        .where('a.exam_id', '=', examId)
        .where('a.status', 'in', SEATED_STATUSES)
        .where('p.cancelled_at', 'is not', null)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async countSeated(officeId: number, examId: number, trx: Kysely<DB> = k): Promise<number> {
      const r = await trx
        .selectFrom('exam_seat')
        .select(sql<number>`count(*)`.as('n'))
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async replaceSeats(trx: Kysely<DB>, officeId: number, examId: number, seats: RowSource<SeatRow>): Promise<void> {
      await deleteInChunks(trx, db.dialect, 'exam_seat', sql`exam_id = ${examId} and office_id = ${officeId}`);
      if (db.dialect === 'postgres') {
        // Arrays as parameters: 200,000 seats in ten statements instead of 67 of 24,000 parameters
        // each (measured: 15 s → see decision 014).
        for (let i = 0; i < seats.length; i += UNNEST_CHUNK) {
          const c = seats.slice(i, i + UNNEST_CHUNK);
          await sql`
            insert into exam_seat (office_id, exam_id, sitting, subject_id, application_id, site_id, room_id, seat)
            select ${officeId}, ${examId}, s, j, a, si, r, n
            from unnest(${c.map((x) => x.sitting)}::text[], ${c.map((x) => x.subject_id)}::int[], ${c.map((x) => x.application_id)}::int[],
              ${c.map((x) => x.site_id)}::int[], ${c.map((x) => x.room_id)}::int[], ${c.map((x) => x.seat)}::int[]) as x(s, j, a, si, r, n)
          `.execute(trx);
          await breathe();
        }
        return;
      }
      // A turn of the event loop between chunks: the cached reads and sockets are served meanwhile.
      for (let i = 0; i < seats.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('exam_seat')
          .values(seats.slice(i, i + INSERT_CHUNK).map((s) => ({ ...s, office_id: officeId, exam_id: examId })))
          .execute();
        await breathe();
      }
    },
    /** Every seat of an exam (who, where, which paper): what 补排 must leave as it is. */
    examSeats(officeId: number, examId: number, trx: Kysely<DB>) {
      return trx
        .selectFrom('exam_seat')
        .select(['application_id', 'room_id', 'subject_id', 'sitting', 'seat'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .execute();
    },
    /** The exam's ticket numbers and the places their numbers were made from. */
    tickets(officeId: number, examId: number, trx: Kysely<DB>) {
      return trx
        .selectFrom('admission_ticket')
        .select(['application_id', 'ticket_no'])
        .where('office_id', '=', officeId)
        .where('exam_id', '=', examId)
        .execute();
    },
    /** Seats added to an arranged exam (补排), leaving every other seat as it is. */
    async insertSeats(trx: Kysely<DB>, officeId: number, examId: number, seats: readonly SeatRow[]): Promise<void> {
      for (let i = 0; i < seats.length; i += INSERT_CHUNK)
        await trx
          .insertInto('exam_seat')
          .values(seats.slice(i, i + INSERT_CHUNK).map((s) => ({ ...s, office_id: officeId, exam_id: examId })))
          .execute();
    },
    async insertTickets(trx: Kysely<DB>, rows: AdmissionTicketTable[]): Promise<void> {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK)
        await trx
          .insertInto('admission_ticket')
          .values(rows.slice(i, i + INSERT_CHUNK))
          .execute();
    },
    /** The distinct non-empty cities of an exam's sites, in order. */
    async siteCities(examId: number): Promise<string[]> {
      const rows = await k
        .selectFrom('exam_site')
        .select('city')
        .distinct()
        .where('exam_id', '=', examId)
        .where('city', '!=', '')
        .orderBy('city')
        .execute();
      return rows.map((r) => r.city);
    },
    /** A candidate's own application to an exam with what the city choice depends on. */
    ownApplication(candidateId: number, examId: number) {
      return k
        .selectFrom('application as a')
        .innerJoin('exam as e', 'e.id', 'a.exam_id')
        .select(['a.id', 'a.exam_id', 'a.office_id', 'a.status', 'a.site_city', 'e.site_city_choice'])
        .where('a.candidate_id', '=', candidateId)
        .where('a.exam_id', '=', examId)
        .orderBy('a.id', 'desc')
        .executeTakeFirst();
    },
    async examSeated(examId: number): Promise<boolean> {
      const r = await k.selectFrom('exam_seat').select('application_id').where('exam_id', '=', examId).limit(1).executeTakeFirst();
      return r !== undefined;
    },
    async setSiteCity(applicationId: number, city: string, at: string): Promise<void> {
      await k.updateTable('application').set({ site_city: city, updated_at: at }).where('id', '=', applicationId).execute();
    },
    /** Seats of the exam's candidates whose ticket number or name contains `q` (at most `limit` candidates). */
    async findSeated(officeId: number, examId: number, q: string, limit: number) {
      const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const ids = await k
        .selectFrom('exam_seat as s')
        .innerJoin('application as a', 'a.id', 's.application_id')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .leftJoin('admission_ticket as t', 't.application_id', 's.application_id')
        .select('s.application_id')
        .distinct()
        .where('s.office_id', '=', officeId)
        .where('s.exam_id', '=', examId)
        .where((eb) =>
          eb.or([eb('c.name', 'like', sql<string>`${like} escape '\\'`), eb('t.ticket_no', 'like', sql<string>`${like} escape '\\'`)]),
        )
        .orderBy('s.application_id')
        .limit(limit)
        .execute();
      if (ids.length === 0) return [];
      return seatRows(k)
        .select([
          's.application_id',
          'c.name',
          't.ticket_no',
          's.subject_id',
          'j.name as subject',
          'j.start_at',
          'si.name as site',
          's.room_id',
          'r.code as room',
          's.seat',
        ])
        .where('s.exam_id', '=', examId)
        .where(
          's.application_id',
          'in',
          ids.map((i) => i.application_id),
        )
        .orderBy('s.application_id')
        .orderBy('j.start_at')
        .execute();
    },
    async setSeed(trx: Kysely<DB>, examId: number, seed: string): Promise<void> {
      await trx.updateTable('exam').set({ arrangement_seed: seed }).where('id', '=', examId).execute();
    },
  };
}

export type ArrangementRepository = ReturnType<typeof createArrangementRepository>;
