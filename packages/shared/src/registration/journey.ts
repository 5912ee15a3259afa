import { z } from 'zod';
import { examSchema } from '../content/exams';
import { APPLICATION_STATUSES } from './lifecycle';

/**
 * The schemas of the candidate's way through an exam: their applications as the site reads them.
 * The rules that say where each stands and what comes next are in journey-steps.ts (no zod).
 */

/** One of the candidate's applications, with its exam and what they can do with it now. */
export const myApplicationSchema = z.object({
  id: z.number().int(),
  exam: examSchema,
  status: z.enum(APPLICATION_STATUSES),
  reason: z.string(),
  version: z.number().int(),
  position: z.object({ id: z.number().int(), code: z.string(), name: z.string(), unit: z.string() }).nullable(),
  /** The integrity pledge of 报考须知 is signed. */
  pledged: z.boolean(),
  /** Labels of the fields the exam requires that the form still leaves empty. */
  missing: z.array(z.string()),
  canEdit: z.boolean(),
  canWithdraw: z.boolean(),
  submittedAt: z.string().nullable(),
  updatedAt: z.string(),
  /** 报名号, given at the first submit; null before it. */
  applicationNo: z.string().nullable(),
  /** Close-out cancelled the position: a confirmed candidate must switch or give up in the switch window. */
  positionCancelled: z.boolean(),
  /** The candidate's admission ticket is issued: its print window (end null: open-ended); null: none. */
  ticketPrint: z.object({ start: z.string(), end: z.string().nullable() }).nullable(),
});
export type MyApplication = z.infer<typeof myApplicationSchema>;

/** What a next application starts from: the person's fields of their latest other application. */
export const lastProfileSchema = z
  .object({
    examName: z.string(),
    form: z.record(z.string(), z.union([z.string(), z.number()])),
  })
  .nullable();
export type LastProfile = z.infer<typeof lastProfileSchema>;
