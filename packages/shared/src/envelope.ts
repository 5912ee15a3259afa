import { z } from 'zod';

/** The answer of every /api call (DESIGN §5). */
export interface Envelope<T = unknown> {
  success: boolean;
  errorCode?: number | string;
  msg?: string;
  data?: T;
}

export interface Page<T> {
  list: T[];
  total: number;
}

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data };
}

export function fail(errorCode: number | string, msg: string): Envelope<never> {
  return { success: false, errorCode, msg };
}

/** The envelope as a zod schema, for route response documentation and client parsing. */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.boolean(),
    errorCode: z.union([z.number(), z.string()]).optional(),
    msg: z.string().optional(),
    data: data.optional(),
  });
}
