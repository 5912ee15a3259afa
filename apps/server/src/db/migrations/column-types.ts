import { sql, type ColumnDefinitionBuilder } from 'kysely';
import type { Dialect } from '../database';

/** The column types every migration writes in both dialects: an auto-numbered key, and bytes. */
export function columnTypes(dialect: Dialect) {
  return {
    id: dialect === 'postgres' ? sql`serial` : sql`integer`,
    pk: (c: ColumnDefinitionBuilder) => (dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey()),
    blob: dialect === 'postgres' ? sql`bytea` : sql`blob`,
  };
}
