import { birthdayFromIdno, idnoCheckChar, sexFromIdno, zonedToInstant, type ApplicationStatus } from '@zhikaoyun/shared';
import type { Insertable, Kysely } from 'kysely';
import type { DataCipher } from '../lib/crypto';
import { hashPassword } from '../lib/password';
import { assignApplicationNo } from '../modules/registration/applications/repository';
import { createArrangementRepository } from '../modules/arrangement/arrangement/repository';
import { seatExam } from '../modules/arrangement/arrangement/seating-service';
import { issueTickets } from '../modules/arrangement/tickets/issue';
import { createTicketsRepository } from '../modules/arrangement/tickets/repository';
import type { Db } from '../db/database';
import type { DB, ExamTable } from '../db/schema';
import { positionRequirements, type DemoPosition } from './data';

/*
 * The seeds' writes the demo exams share: the exam with its texts, a position of the demo list, a
 * candidate, an application with its history, the papers of an exam day, seats and tickets.
 */

const DAY = 86_400_000;

/** The demo candidates' password (development machines only; never seeded in production). */
export const DEMO_CANDIDATE_PASSWORD = 'Demo-pay-2026';

/** What the seed hands each demo stage. */
export interface DemoStageOptions {
  officeId: number;
  now: Date;
  cipher: DataCipher;
  config: string;
  docs: { type: string; title: string; content: string }[];
  timeZone: string;
}

/** An instant so many days from the seed's now, as stored. */
export const daysFrom =
  (now: Date) =>
  (days: number): string =>
    new Date(now.getTime() + days * DAY).toISOString();

/** A published demo exam of the office with the stage's texts; answers its id. */
export async function insertDemoExam(
  trx: Kysely<DB>,
  opts: DemoStageOptions,
  exam: Omit<Insertable<ExamTable>, 'office_id' | 'published' | 'config' | 'created_at' | 'updated_at'>,
): Promise<number> {
  const stamp = opts.now.toISOString();
  const row = await trx
    .insertInto('exam')
    .values({ ...exam, office_id: opts.officeId, published: 1, config: opts.config, created_at: stamp, updated_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertExamDocuments(trx, opts.officeId, row.id, opts.docs, stamp);
  return row.id;
}

/** The two papers of a demo exam day, at the office's 09:00 and 14:00; answers their ids. */
export async function insertDemoSubjects(trx: Kysely<DB>, opts: DemoStageOptions, examId: number, examDay: string): Promise<number[]> {
  const stamp = opts.now.toISOString();
  const sitting = (hhmm: string) => zonedToInstant(`${examDay} ${hhmm}`, opts.timeZone);
  const ids: number[] = [];
  for (const [name, start, end] of [
    ['公共基础知识', '09:00', '11:00'],
    ['专业知识', '14:00', '16:00'],
  ] as const) {
    const row = await trx
      .insertInto('exam_subject')
      .values({
        office_id: opts.officeId,
        exam_id: examId,
        name,
        start_at: sitting(start),
        end_at: sitting(end),
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

/** One step of an application's history, as the lifecycle writes it. */
export interface DemoStep {
  status: ApplicationStatus;
  at: string;
  actor: 'candidate' | 'staff' | 'system';
  reason?: string;
}

/**
 * A demo application with its history written step by step: it stands at its last step, was
 * made at its first, submitted and reviewed when those steps were taken. Answers its id.
 */
export async function insertDemoApplication(
  trx: Kysely<DB>,
  a: { officeId: number; examId: number; candidateId: number; positionId: number; form: object; steps: readonly DemoStep[] },
): Promise<number> {
  const first = a.steps[0];
  const last = a.steps.at(-1);
  if (!first || !last) throw new Error('seed: an application needs at least one step');
  const when = (status: ApplicationStatus) => a.steps.find((s) => s.status === status)?.at ?? null;
  const row = await trx
    .insertInto('application')
    .values({
      office_id: a.officeId,
      exam_id: a.examId,
      candidate_id: a.candidateId,
      position_id: a.positionId,
      status: last.status,
      form: JSON.stringify(a.form),
      reason: '',
      submitted_at: when('submitted'),
      reviewed_at: when('approved'),
      created_at: first.at,
      updated_at: last.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const s of a.steps)
    await trx
      .insertInto('application_history')
      .values({ application_id: row.id, status: s.status, reason: s.reason ?? '', actor: s.actor, actor_id: null, at: s.at })
      .execute();
  // Submitted once: it has its 报名号, as the lifecycle gives one at the first submit.
  if (when('submitted') !== null) await assignApplicationNo(trx, row.id);
  return row.id;
}

/**
 * Seats a demo exam's confirmed candidates at one site with the product's own arrangement,
 * numbers their tickets and publishes them (at `print.start`) for printing until `print.end`.
 */
export async function seatAndPublishDemo(
  db: Db,
  trx: Kysely<DB>,
  opts: DemoStageOptions,
  exam: { id: number; code: string; seed: string },
  site: { name: string; address: string; rooms: number; seatsPerRoom: number },
  print: { start: string; end: string },
): Promise<void> {
  const stamp = opts.now.toISOString();
  const arrangement = createArrangementRepository(db);
  await arrangement.saveSite(trx, { officeId: opts.officeId, examId: exam.id, ...site, city: '', at: stamp });
  await seatExam(arrangement, trx, opts.officeId, exam.id, exam.seed);
  const tickets = createTicketsRepository(db);
  await issueTickets(
    tickets,
    trx,
    opts.officeId,
    exam.id,
    { exam_code: exam.code, ticket_template: '{YY}{EXAM}{SITE}{ROOM}{SEAT}' },
    stamp,
  );
  await tickets.publish(trx, exam.id, print.start, print.end, print.start);
}
export async function insertExamDocuments(
  trx: Kysely<DB>,
  officeId: number,
  examId: number,
  docs: readonly { type: string; title: string; content: string }[],
  stamp: string,
): Promise<void> {
  for (const [sort, d] of docs.entries()) {
    await trx
      .insertInto('exam_document')
      .values({
        office_id: officeId,
        exam_id: examId,
        type: d.type,
        title: d.title,
        content: d.content,
        sort,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  }
}

export async function insertDemoPosition(
  trx: Kysely<DB>,
  officeId: number,
  examId: number,
  code: string,
  p: DemoPosition,
  stamp: string,
): Promise<number> {
  const row = await trx
    .insertInto('position')
    .values({
      office_id: officeId,
      exam_id: examId,
      code,
      name: p.name,
      unit: p.unit,
      headcount: p.headcount,
      description: p.description,
      requirements: JSON.stringify(positionRequirements(p)),
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A demo candidate: the first 17 digits of the ID number, and how their real-name check stands (passed unless said). */
export interface DemoCandidate {
  first17: string;
  name: string;
  mobile: string;
  realName?: 'passed' | 'pending' | 'failed';
}

/**
 * A demo candidate as registration stores one: the ID number (its check character computed from
 * the first 17) encrypted with its blind index, birthday and sex read from it, the given password
 * hash, the demo security question. Answers the candidate's id and full ID number.
 */
export async function insertDemoCandidate(
  trx: Kysely<DB>,
  opts: { officeId: number; cipher: DataCipher },
  c: DemoCandidate,
  passwordHash: string,
  stamp: string,
): Promise<{ id: number; idno: string }> {
  const idno = c.first17 + idnoCheckChar(c.first17);
  const row = await trx
    .insertInto('candidate')
    .values({
      office_id: opts.officeId,
      idno_index: opts.cipher.blindIndex('idno', idno),
      idno_enc: opts.cipher.encrypt(idno),
      name: c.name,
      birthday: birthdayFromIdno(idno) ?? '',
      sex: sexFromIdno(idno) ?? '',
      password_hash: passwordHash,
      mobile: c.mobile,
      email: '',
      question: '我的小学校名？',
      answer_enc: opts.cipher.encrypt('实验小学'),
      photo_id: null,
      consent_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Registration checks name and ID number (decision 034); the sandbox, with no records set, passes
  // them. A demo candidate may stand otherwise: still pending (asked again a day on) or failed.
  const realName = c.realName ?? 'passed';
  await trx
    .insertInto('identity_check')
    .values({
      office_id: opts.officeId,
      candidate_id: row.id,
      kind: 'real_name',
      status: realName,
      provider: 'sandbox',
      reason: realName === 'failed' ? 'mismatch' : realName === 'pending' ? 'no answer' : '',
      attempts: realName === 'pending' ? 1 : 0,
      next_at: realName === 'pending' ? new Date(Date.parse(stamp) + 86_400_000).toISOString() : null,
      created_at: stamp,
      checked_at: realName === 'pending' ? null : stamp,
    })
    .execute();
  return { id: row.id, idno };
}

/**
 * One demo stage's writes, bound to its transaction, office and clock: `at(days)` from the seed's
 * now, and the exam, positions, papers, candidates (sharing one hash of DEMO_CANDIDATE_PASSWORD)
 * and applications of the stage.
 */
export async function demoStage(trx: Kysely<DB>, opts: DemoStageOptions) {
  const stamp = opts.now.toISOString();
  const passwordHash = await hashPassword(DEMO_CANDIDATE_PASSWORD);
  return {
    at: daysFrom(opts.now),
    stamp,
    exam: (exam: Parameters<typeof insertDemoExam>[2]) => insertDemoExam(trx, opts, exam),
    position: (examId: number, code: string, p: DemoPosition) => insertDemoPosition(trx, opts.officeId, examId, code, p, stamp),
    subjects: (examId: number, examDay: string) => insertDemoSubjects(trx, opts, examId, examDay),
    candidate: (c: DemoCandidate) => insertDemoCandidate(trx, opts, c, passwordHash, stamp),
    application: (a: Omit<Parameters<typeof insertDemoApplication>[1], 'officeId'>) =>
      insertDemoApplication(trx, { officeId: opts.officeId, ...a }),
  };
}

/** The history of an application its candidate confirmed: made, submitted, approved by staff, confirmed, on these days from now. */
export function confirmedSteps(at: (days: number) => string, days: readonly [number, number, number, number]): DemoStep[] {
  return [
    { status: 'draft', at: at(days[0]), actor: 'candidate' },
    { status: 'submitted', at: at(days[1]), actor: 'candidate' },
    { status: 'approved', at: at(days[2]), actor: 'staff' },
    { status: 'confirmed', at: at(days[3]), actor: 'candidate' },
  ];
}
