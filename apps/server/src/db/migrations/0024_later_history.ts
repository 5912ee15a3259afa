import type { Kysely } from 'kysely';
import type { Dialect } from '../database';
import { columnTypes } from './column-types';

type AnyDb = Kysely<unknown>;

/**
 * `later_history`: every step of the machine after confirmation (packages/shared/src/
 * later-stages-lifecycle.ts) that staff fire, one row per application and step: the event, the
 * state it was judged in and the state it led to. Its own table, not `application_history`: that
 * one holds the application's status (草稿 … 已确认), which the candidate's status history lists,
 * and these states are another machine's. The stored results (stage_result, score_total's 放弃 and
 * 递补 marks) stay where the ranks read them; this is their trail.
 */
export function laterHistory(dialect: Dialect) {
  const { id, pk } = columnTypes(dialect);
  return {
    async up(db: AnyDb): Promise<void> {
      await db.schema
        .createTable('later_history')
        .addColumn('id', id, pk)
        .addColumn('application_id', 'integer', (c) => c.notNull().references('application.id').onDelete('cascade'))
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('from_state', 'text', (c) => c.notNull())
        .addColumn('to_state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('actor_id', 'integer')
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('later_history_application_idx').on('later_history').columns(['application_id', 'id']).execute();
    },
    async down(db: AnyDb): Promise<void> {
      await db.schema.dropTable('later_history').execute();
    },
  };
}
