import type { Kysely } from 'kysely';
import type { Dialect } from '../database';

type AnyDb = Kysely<unknown>;

/** The foreign keys whose parent rows the product deletes, each with an index on its child columns. */
const INDEXES: [name: string, table: string, column: string][] = [
  // A candidate's own applications (我的报名, the photo lock, closing the account) and the
  // cascade when the account goes. The unique (exam_id, candidate_id) cannot serve a search by
  // candidate alone: without this index each of those read the whole table, 2.5 s at 1M
  // applications on SQLite, with the event loop blocked for all of it.
  ['application_candidate_idx', 'application', 'candidate_id'],
  // The candidate's fee waivers (缴费 page); the index there is partial (pending ones only).
  ['fee_waiver_application_idx', 'fee_waiver', 'application_id'],
  // Editing an exam site replaces its rooms: the cascade to each room's seats and tickets.
  ['exam_seat_room_idx', 'exam_seat', 'room_id'],
  ['admission_ticket_room_idx', 'admission_ticket', 'room_id'],
];

export function foreignKeyIndexes(_dialect: Dialect) {
  return {
    async up(db: AnyDb): Promise<void> {
      for (const [name, table, column] of INDEXES) await db.schema.createIndex(name).on(table).column(column).execute();
    },
    async down(db: AnyDb): Promise<void> {
      for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
    },
  };
}
