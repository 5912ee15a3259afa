/**
 * Rows a writer inserts chunk by chunk: an array, or columns packed in typed arrays (what a
 * worker thread hands back, moved instead of copied) whose rows are made only for the chunk
 * being written.
 */
export interface RowSource<T> {
  readonly length: number;
  slice(start: number, end: number): T[];
}

/**
 * A turn of the event loop between two chunks of a long write: awaiting better-sqlite3 through
 * Kysely only yields to promise callbacks, so without this a transaction of a hundred statements
 * holds up every socket for its whole length (decision 014).
 */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
