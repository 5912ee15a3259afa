import { z } from 'zod';
import { MAX_PAGE_SIZE } from './constants';

/** The answer of every /api call (a business answer is not a transport failure, so proxies and monitors see 200). */
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

/** page/pageSize of every list call; a client asking for more than MAX_PAGE_SIZE gets MAX_PAGE_SIZE. */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1, { message: '页码有误' }).max(10_000, { message: '页码有误' }).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1, { message: '每页条数有误' })
    .default(10)
    .transform((n) => Math.min(n, MAX_PAGE_SIZE)),
});
