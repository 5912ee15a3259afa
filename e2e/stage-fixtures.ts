import Database from 'better-sqlite3';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { api, registerCandidate } from './support';

/**
 * A stage of an exam no test's minute can reach through the product (a close-out done, a
 * confirmation window over), set up for a spec of its own: the exam and its posts through the
 * console's calls, the candidate's application written into the e2e database as the lifecycle
 * would have left it. Each exam is the spec's own, published with windows around now, never in
 * its registration window (the suites' "exam open for registration" stays the demo one).
 */
const DAY = 86_400_000;
const at = (ms: number) => new Date(Date.now() + ms).toISOString();

/** The e2e database (the suite's server has it open too: writes wait for its lock). */
export const e2eDb = () => new Database(path.join(process.env.E2E_DB_DIR!, 'e2e.db'), { fileMustExist: true, timeout: 10_000 });

/** Windows of an exam past its registration and review, its confirmation open for a day. */
export const CONFIRMING = {
  registrationStart: at(-10 * DAY),
  registrationEnd: at(-8 * DAY),
  reviewStart: at(-10 * DAY),
  reviewEnd: at(-6 * DAY),
  confirmationStart: at(-DAY),
  confirmationEnd: at(DAY),
};

/** Windows of an exam past its confirmation deadline, in the switch window for two days. */
export const SWITCHING = {
  ...CONFIRMING,
  confirmationStart: at(-5 * DAY),
  confirmationEnd: at(-DAY),
  switchStart: at(-3600_000),
  switchEnd: at(2 * DAY),
};

export interface StageExam {
  examId: number;
  name: string;
  /** The posts' ids, in the order given. */
  positionIds: number[];
  /** Takes the exam back (unpublished) at the test's end. */
  takeBack: () => Promise<unknown>;
}

/** A published exam of the spec's own with `windows` and one post a name (no requirements), made by `staffToken`. */
export async function stageExam(
  request: APIRequestContext,
  staffToken: string,
  name: string,
  windows: Record<string, string>,
  posts: string[],
  extra: Record<string, unknown> = {},
): Promise<StageExam> {
  const exam = (await api(request, staffToken, '/api/admin/saveExam', {
    name,
    config: { fields: ['school'], required: ['school'] },
    fee: 0,
    openingRatio: 3,
    published: true,
    ...windows,
    ...extra,
  })) as { id: number };
  const positionIds: number[] = [];
  for (const [i, post] of posts.entries()) {
    const saved = (await api(request, staffToken, '/api/admin/savePosition', {
      examId: exam.id,
      code: `P${String(i + 1).padStart(2, '0')}`,
      name: post,
      unit: '示范市档案馆',
      headcount: 1,
      requirements: { minEducation: null, majors: [], maxAge: null, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
    })) as { id: number };
    positionIds.push(saved.id);
  }
  return {
    examId: exam.id,
    name,
    positionIds,
    takeBack: () => api(request, staffToken, '/api/admin/setExamPublished', { examId: exam.id, published: false }),
  };
}

/**
 * The candidate's application of the exam on the post, `status` (approved or confirmed) with its
 * history: its id. `applicationNo` and `form`: the 报名号 and the form a spec asserts on.
 */
export function writeApplication(
  examId: number,
  positionId: number,
  candidateId: number,
  status: 'approved' | 'confirmed',
  { applicationNo, form = { pledge: true, school: '浙江大学' } }: { applicationNo?: string; form?: Record<string, unknown> } = {},
): number {
  const conn = e2eDb();
  try {
    const office = conn.prepare('select office_id from exam where id = ?').get(examId) as { office_id: number };
    const id = conn
      .prepare(
        `insert into application (office_id, exam_id, candidate_id, position_id, status, form, version, reason, submitted_at, reviewed_at, created_at, updated_at, application_no)
         values (?, ?, ?, ?, ?, ?, 1, '', ?, ?, ?, ?, ?)`,
      )
      .run(
        office.office_id,
        examId,
        candidateId,
        positionId,
        status,
        JSON.stringify(form),
        at(-9 * DAY),
        at(-7 * DAY),
        at(-10 * DAY),
        at(0),
        applicationNo ?? String(2_800_000_000 + Math.floor(Math.random() * 100_000_000)),
      ).lastInsertRowid;
    const steps = status === 'confirmed' ? ['draft', 'submitted', 'approved', 'confirmed'] : ['draft', 'submitted', 'approved'];
    steps.forEach((s, i) =>
      conn
        .prepare(`insert into application_history (application_id, status, reason, actor, actor_id, at) values (?, ?, '', ?, null, ?)`)
        .run(id, s, s === 'approved' ? 'staff' : 'candidate', at(-(10 - i) * DAY)),
    );
    return Number(id);
  } finally {
    conn.close();
  }
}

/** The fee of the application paid (`amount` fen), as the payment channel's notice would have recorded it. */
export function payFee(applicationId: number, amount: number): void {
  const conn = e2eDb();
  try {
    const app = conn.prepare('select office_id, exam_id from application where id = ?').get(applicationId) as {
      office_id: number;
      exam_id: number;
    };
    conn
      .prepare(
        `insert into payment_order (office_id, exam_id, application_id, order_no, provider, amount, status, pay_url, trade_no, created_at, expires_at, paid_at, recorded_at)
         values (?, ?, ?, ?, 'sandbox', ?, 'paid', '', ?, ?, ?, ?, ?)`,
      )
      .run(
        app.office_id,
        app.exam_id,
        applicationId,
        `E2E${applicationId}${Date.now()}`,
        amount,
        `T${applicationId}${Date.now()}`,
        at(-3 * DAY),
        at(-3 * DAY + 1800_000),
        at(-3 * DAY + 600_000),
        at(-3 * DAY + 600_000),
      );
  } finally {
    conn.close();
  }
}

/**
 * An exam in its confirmation window (as `stageExam`) with `confirmed` confirmed candidates on its
 * one post, a paper ten days ahead and one site of one room, its seats arranged and its tickets
 * not yet published.
 */
export async function seatedExam(request: APIRequestContext, staffToken: string, name: string, confirmed: number): Promise<StageExam> {
  const exam = await stageExam(request, staffToken, name, CONFIRMING, ['综合文秘']);
  for (let i = 0; i < confirmed; i++) {
    const { token } = await registerCandidate(request);
    writeApplication(exam.examId, exam.positionIds[0]!, await candidateId(request, token), 'confirmed');
  }
  const examId = exam.examId;
  await api(request, staffToken, '/api/admin/saveExamSubject', {
    examId,
    name: '综合基础知识',
    startAt: at(10 * DAY),
    endAt: at(10 * DAY + 2 * 3600_000),
  });
  await api(request, staffToken, '/api/admin/saveExamSite', {
    examId,
    name: '无障碍测试考点',
    address: '测试路 1 号',
    rooms: 1,
    seatsPerRoom: 30,
  });
  await api(request, staffToken, '/api/admin/arrangeSeats', { examId });
  return exam;
}

/** Publishes the tickets of an arranged exam, printing open from now for a week. */
export async function publishTickets(request: APIRequestContext, staffToken: string, examId: number): Promise<void> {
  await api(request, staffToken, '/api/admin/publishTickets', { examId, printStart: at(-60_000), printEnd: at(7 * DAY) });
}

/** The post cancelled at close-out. */
export function cancelPosition(positionId: number): void {
  const conn = e2eDb();
  try {
    conn.prepare('update position set cancelled_at = ? where id = ?').run(at(0), positionId);
  } finally {
    conn.close();
  }
}

/** A signed-in candidate's own id. */
export async function candidateId(request: APIRequestContext, token: string): Promise<number> {
  return (await (await request.get('/api/getUserInfo', { headers: { authorization: `Bearer ${token}` } })).json()).data.id as number;
}
