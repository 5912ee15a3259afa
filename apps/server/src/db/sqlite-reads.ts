import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  type TransactionSettings,
} from 'kysely';

type Prepares = Pick<SQLite.Database, 'prepare' | 'close'>;

/**
 * SQLite with a second, read-only connection for the reads made outside a transaction.
 *
 * Kysely's SQLite driver has one connection behind a mutex: while a transaction holds it (a
 * group commit waiting for its disk flush, a seat arrangement or a score import writing in chunks
 * with turns of the event loop between them), every other query waits for the whole
 * transaction, and a candidate who only reads (their application, their session) waits seconds
 * behind the office's job. In WAL mode a reader does not wait for the writer: it sees the last
 * committed state, as a PostgreSQL pool's other connections do, which the code is already written
 * for. So a `select` built with Kysely outside a transaction goes to the reader at once;
 * everything else (writes, raw SQL, and every query of a transaction) goes to the one writer as
 * before.
 */
export class SqliteReadsDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #reader: () => Prepares;
  /** Who holds or waits for the writer, for the pool metrics (db/database.ts). */
  readonly writerWaits: WriterWaits = { claims: 0, waits: 0, waitSeconds: 0 };

  constructor(config: SqliteDialectConfig & { database: Prepares }, reader: () => Prepares) {
    super(config);
    this.#config = config;
    this.#reader = reader;
  }

  override createDriver(): Driver {
    return new ReadsDriver(new SqliteDriver(this.#config), this.#reader, this.writerWaits);
  }
}

interface WriterWaits {
  /** Takes of the writer asked for and not yet let go: the holder and those waiting behind it. */
  claims: number;
  /** Takes that found the writer held, and the seconds they waited for it. */
  waits: number;
  waitSeconds: number;
}

class ReadsDriver implements Driver {
  #reader: Prepares | null = null;

  constructor(
    private readonly writer: SqliteDriver,
    private readonly openReader: () => Prepares,
    private readonly waits: WriterWaits,
  ) {}

  /** The one writer connection, behind Kysely's mutex; every take of it is counted for the metrics. */
  async takeWriter(): Promise<DatabaseConnection> {
    const held = this.waits.claims > 0;
    this.waits.claims += 1;
    const start = held ? performance.now() : 0;
    try {
      return await this.writer.acquireConnection();
    } catch (err) {
      this.waits.claims -= 1;
      throw err;
    } finally {
      if (held) {
        this.waits.waits += 1;
        this.waits.waitSeconds += (performance.now() - start) / 1000;
      }
    }
  }

  async giveWriter(): Promise<void> {
    this.waits.claims -= 1;
    await this.writer.releaseConnection();
  }

  async init(): Promise<void> {
    await this.writer.init();
    // After the writer: it has made the file a WAL database, which a read-only connection needs.
    this.#reader = this.openReader();
  }

  read(query: CompiledQuery): QueryResult<unknown> {
    const reader = this.#reader;
    if (reader === null) throw new Error('sqlite reader used before init');
    return { rows: reader.prepare(query.sql).all(query.parameters) };
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new RoutedConnection(this));
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const routed = connection as RoutedConnection;
    const writer = await this.takeWriter();
    try {
      // SQLite has no isolation levels or access modes to set: Kysely's driver ignores them too.
      // IMMEDIATE, not Kysely's plain `begin`: the write lock is taken now, waiting (busy_timeout)
      // for another process that holds it (`npm run purge`, a key rotation). A plain `begin` reads
      // at a snapshot and asks for the lock at its first write; if another process wrote in
      // between (during a seat arrangement's computing, say), SQLite refuses at once with
      // "database is locked" and no wait, and the staff member got a 500.
      await writer.executeQuery(CompiledQuery.raw('begin immediate'));
    } catch (err) {
      await this.giveWriter();
      throw err;
    }
    routed.writer = writer;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    // A failed commit keeps the writer: Kysely rolls back next, which lets it go.
    await this.writer.commitTransaction(routed.held());
    await this.#letGo(routed);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    try {
      await this.writer.rollbackTransaction(routed.held());
    } finally {
      await this.#letGo(routed);
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.writer.savepoint((connection as RoutedConnection).held(), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.writer.rollbackToSavepoint((connection as RoutedConnection).held(), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.writer.releaseSavepoint((connection as RoutedConnection).held(), name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.#letGo(connection as RoutedConnection);
  }

  async destroy(): Promise<void> {
    this.#reader?.close();
    this.#reader = null;
    await this.writer.destroy();
  }

  async #letGo(routed: RoutedConnection): Promise<void> {
    if (routed.writer === null) return;
    routed.writer = null;
    await this.giveWriter();
  }
}

class RoutedConnection implements DatabaseConnection {
  /** The writer, held from `begin` to `commit`/`rollback`. */
  writer: DatabaseConnection | null = null;

  constructor(private readonly driver: ReadsDriver) {}

  held(): DatabaseConnection {
    if (this.writer === null) throw new Error('no transaction on this connection');
    return this.writer;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.writer !== null) return this.writer.executeQuery<R>(query);
    if (SelectQueryNode.is(query.query)) return this.driver.read(query) as QueryResult<R>;
    const writer = await this.driver.takeWriter();
    try {
      return await writer.executeQuery<R>(query);
    } finally {
      await this.driver.giveWriter();
    }
  }

  async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.writer !== null) {
      yield* this.writer.streamQuery<R>(query, chunkSize);
      return;
    }
    // A stream outside a transaction holds the writer for as long as it is read, as before.
    const writer = await this.driver.takeWriter();
    try {
      yield* writer.streamQuery<R>(query, chunkSize);
    } finally {
      await this.driver.giveWriter();
    }
  }
}
