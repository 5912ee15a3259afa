import type SQLite from 'better-sqlite3';

/** Distinct SQL texts kept prepared; dynamic ones (IN lists of varying length) must not grow it without end. */
const MAX_STATEMENTS = 500;

/**
 * better-sqlite3 as Kysely's SQLite dialect sees it, with each SQL text prepared once. Kysely's
 * driver prepares every query it runs; preparing (parsing and planning) costs about as much as
 * running a small query, so reusing the statement roughly halves the database's share of a
 * request. A statement still busy (a streamed select) is never handed out twice: a fresh one is.
 */
export function withStatementCache(db: SQLite.Database): Pick<SQLite.Database, 'prepare' | 'close'> {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = db.prepare(sql);
      if (cache.size >= MAX_STATEMENTS) cache.clear();
      cache.set(sql, statement);
      return statement;
    },
    close() {
      cache.clear();
      return db.close();
    },
  } as Pick<SQLite.Database, 'prepare' | 'close'>;
}
