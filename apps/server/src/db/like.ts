import { sql } from 'kysely';

/** A `LIKE … ESCAPE '\'` pattern matching `text` anywhere, with %, _ and \ taken literally. */
export function containsPattern(text: string) {
  const like = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql<string>`${like} escape '\\'`;
}
