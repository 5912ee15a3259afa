import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Db } from './database';
import type { DB } from './schema';

/**
 * Queries declared once with named parameters and run with an object of values, on both
 * dialects. Kysely builds and compiles a query on every call; for the reads every request makes
 * (the candidate's own application, its history, the record a reviewer opens) that rebuilding cost
 * more than running the query. Here the query is built once with a placeholder per name, compiled
 * once, and each run only puts the values where the placeholders were (SQLite's statement cache
 * then reuses the prepared statement for the very same SQL text).
 *
 *     const byId = prepare(db, { officeId: param<number>(), id: param<number>() }, (p) =>
 *       db.kysely.selectFrom('application').selectAll().where('office_id', '=', p.officeId).where('id', '=', p.id));
 *     await byId.first({ officeId, id });
 *
 * A parameter stands for one value (not an IN list), and the query must not depend on it in any
 * other way than as a bound value.
 */

declare const TYPE: unique symbol;
/** A named parameter's type, declared with `param<T>()`. */
export interface ParamType<T> {
  readonly [TYPE]?: T;
}
export const param = <T>(): ParamType<T> => ({});

type Declared = Record<string, ParamType<unknown>>;
export type ParamValues<D extends Declared> = { [K in keyof D]: D[K] extends ParamType<infer T> ? T : never };

/** Where a name's value goes: what Kysely sees while the query is compiled once. */
class Placeholder {
  constructor(readonly name: string) {}
}

/** A bound value: a named parameter's, or a constant the query was built with. */
type Slot = { named: true; name: string } | { named: false; value: unknown };

export interface PreparedQuery<D extends Declared, R> {
  readonly sql: string;
  /** Every row. `executor`: a transaction to run in (default: the database). */
  all(values: ParamValues<D>, executor?: Kysely<DB>): Promise<R[]>;
  first(values: ParamValues<D>, executor?: Kysely<DB>): Promise<R | undefined>;
  /** For writes: how many rows it changed. */
  run(values: ParamValues<D>, executor?: Kysely<DB>): Promise<number>;
}

export function prepare<D extends Declared, R>(db: Db, declared: D, build: (p: ParamValues<D>) => Compilable<R>): PreparedQuery<D, R> {
  const names = Object.keys(declared);
  // The placeholders stand in for the values while Kysely compiles the query; it binds each
  // unchanged, so their order in `parameters` says which name goes where.
  const placeholders = Object.fromEntries(names.map((n) => [n, new Placeholder(n)])) as unknown as ParamValues<D>;
  const compiled = build(placeholders).compile();
  const slots = compiled.parameters.map((v): Slot =>
    v instanceof Placeholder ? { named: true, name: v.name } : { named: false, value: v },
  );
  const used = new Set(slots.flatMap((s) => (s.named ? [s.name] : [])));
  const unused = names.filter((n) => !used.has(n));
  if (unused.length > 0) throw new Error(`prepared query does not bind ${unused.join(', ')}: ${compiled.sql}`);

  function bind(values: ParamValues<D>): CompiledQuery<R> {
    const byName = values as Record<string, unknown>;
    return { ...compiled, parameters: slots.map((s) => (s.named ? byName[s.name] : s.value)) };
  }

  return {
    sql: compiled.sql,
    async all(values, executor = db.kysely) {
      return (await executor.executeQuery(bind(values))).rows;
    },
    async first(values, executor = db.kysely) {
      return (await executor.executeQuery(bind(values))).rows[0];
    },
    async run(values, executor = db.kysely) {
      return Number((await executor.executeQuery(bind(values))).numAffectedRows ?? 0n);
    },
  };
}
