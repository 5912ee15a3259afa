import type { z } from 'zod';

/** Parses a JSON column against its schema; a damaged value falls back rather than failing a read. */
export function parseJsonColumn<T extends z.ZodType>(schema: T, text: string, fallback: z.infer<T>): z.infer<T> {
  try {
    const result = schema.safeParse(JSON.parse(text));
    return result.success ? result.data : fallback;
  } catch {
    return fallback;
  }
}
