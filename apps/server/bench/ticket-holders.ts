import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../src/db/schema';
import type { TestApp } from '../test/helpers/app';
import { bearer, post } from '../test/helpers/candidates';

/** The two papers of the benches' exam, in two sittings on one day. */
export async function saveTwoPapers(t: TestApp, admin: string, examId: number): Promise<void> {
  for (const [name, start] of [
    ['公共基础知识', '2027-03-01T01:00:00Z'],
    ['专业知识', '2027-03-01T06:00:00Z'],
  ] as const) {
    const end = new Date(new Date(start).getTime() + 7_200_000).toISOString();
    expect((await post(t, '/api/admin/saveExamSubject', { examId, name, startAt: start, endAt: end }, bearer(admin))).body.success).toBe(
      true,
    );
  }
}

/**
 * `n` candidates with confirmed applications spread over the exam's positions and a ticket each
 * (numbers 26xxxxxxxx, all in one room), written straight into the database in chunks: what the
 * score and heavy-work benches start from. `prefix` keeps each bench's blind-index stand-ins apart.
 */
export async function seedTicketHolders(
  k: Kysely<DB>,
  { officeId, examId, n, chunk, prefix }: { officeId: number; examId: number; n: number; chunk: number; prefix: string },
): Promise<void> {
  const room = await k.selectFrom('exam_room').select(['id', 'site_id']).where('exam_id', '=', examId).executeTakeFirstOrThrow();
  const positions = await k.selectFrom('position').select('id').where('exam_id', '=', examId).execute();
  const stamp = new Date().toISOString();
  for (let from = 0; from < n; from += chunk) {
    const ids = Array.from({ length: Math.min(chunk, n - from) }, (_, i) => from + i);
    const candidates = await k
      .insertInto('candidate')
      .values(
        ids.map((i) => ({
          office_id: officeId,
          idno_index: `${prefix}-${i}`,
          idno_enc: 'x',
          name: `考生${i}`,
          birthday: '1995-01-01',
          sex: '男',
          password_hash: 'x',
          mobile: '',
          email: '',
          question: 'q',
          answer_enc: 'x',
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .returning('id')
      .execute();
    const apps = await k
      .insertInto('application')
      .values(
        candidates.map((c, j) => ({
          office_id: officeId,
          exam_id: examId,
          candidate_id: c.id,
          position_id: positions[(from + j) % positions.length]!.id,
          status: 'confirmed' as const,
          form: '{}',
          reason: '',
          submitted_at: stamp,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .returning('id')
      .execute();
    await k
      .insertInto('admission_ticket')
      .values(
        apps.map((a, j) => ({
          application_id: a.id,
          office_id: officeId,
          exam_id: examId,
          ticket_no: `26${String(from + j).padStart(8, '0')}`,
          site_id: room.site_id,
          room_id: room.id,
          seat: 1,
          updated_at: stamp,
        })),
      )
      .execute();
  }
}
