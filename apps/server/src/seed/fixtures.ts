import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import completeForm from './complete-form.json' with { type: 'json' };

// Rows and forms the demo seed, the server's tests and the benches all make: written once here,
// so that a new column or a changed rule is followed in one place rather than in copies.

/**
 * A form that passes submit for the demo exam on the position open to everyone (行政辅助). In
 * JSON so that the benches' plain scripts (bench/lib.mjs) read the very same one.
 */
export const COMPLETE_FORM = completeForm;

/** Stores a candidate's ID photo (a 295×413 JPEG, the size the upload makes) and returns its id. */
export async function insertIdPhoto(
  db: Kysely<DB>,
  p: { officeId: number; candidateId: number; photo: Buffer; stamp: string },
): Promise<number> {
  const row = await db
    .insertInto('photo')
    .values({
      office_id: p.officeId,
      candidate_id: p.candidateId,
      mime: 'image/jpeg',
      width: 295,
      height: 413,
      bytes: p.photo.length,
      data: p.photo,
      created_at: p.stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** What the console's saveExam takes for a draft exam in 2030 (windows far ahead, no form fields). */
export function draftExamInput(name: string) {
  return {
    name,
    registrationStart: '2030-01-01T00:00:00.000Z',
    registrationEnd: '2030-01-10T00:00:00.000Z',
    reviewStart: '2030-01-01T00:00:00.000Z',
    reviewEnd: '2030-01-12T00:00:00.000Z',
    confirmationStart: '2030-01-13T00:00:00.000Z',
    confirmationEnd: '2030-01-15T00:00:00.000Z',
    config: { fields: [], required: [] },
    published: false,
  };
}
