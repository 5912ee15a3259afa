import { REMINDER_KINDS, zonedToInstant, type ReminderKind } from '@zhikaoyun/shared';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { sweepConfirmation } from '../src/modules/confirmation/payments/sweeper';
import {
  ACCOUNTING_FORM,
  adminToken,
  applyOpeningCheck,
  examSuite,
  LASTING_PASSWORDS,
  savedSite,
  savedSubject,
  submittedApplication,
} from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

const HOUR = 3_600_000;
interface Cand {
  idno: string;
  token: string;
  id: number;
  mobile: string;
}
let phones = 0;
/** A phone of its own for each candidate, so that one's outbox rows are told from another's. */
const freshMobile = () => `136${String(process.pid % 10_000).padStart(4, '0')}${String((phones += 1)).padStart(4, '0')}`;
/** The business clock stopped at a Beijing wall-clock time. */
const beijing = (local: string) => testClock.set(zonedToInstant(local, 'Asia/Shanghai'));

/** The calendar's events as name → value maps, from the text of an .ics file (folded lines joined). */
function icsEvents(text: string): Record<string, string>[] {
  const lines = text.replace(/\r\n[ \t]/g, '').split(/\r\n/);
  const events: Record<string, string>[] = [];
  let cur: Record<string, string> | null = null;
  let inAlarm = false;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') cur = {};
    else if (line === 'END:VEVENT') {
      if (cur) events.push(cur);
      cur = null;
    } else if (line === 'BEGIN:VALARM') {
      inAlarm = true;
      if (cur) cur.VALARM = 'yes';
    } else if (line === 'END:VALARM') inAlarm = false;
    else if (cur) {
      const i = line.indexOf(':');
      const name = line.slice(0, i).split(';')[0]!;
      cur[inAlarm ? `ALARM.${name}` : name] = line.slice(i + 1);
    }
  }
  return events;
}

/** 20261202T150000Z for an instant. */
const icsUtc = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/**
 * Reminders before a deadline (issue 34 item 4, decision 038) through the real server and database,
 * the clock moved by the test: each kind once per application, only in office hours, none once the
 * step is done, none when staff turned the kind off for the exam; each a 我的消息 row and an SMS
 * outbox row written together. And the calendar (item 5) parsed back.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `reminders before deadlines on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, examId: number, officeId: number;
      /** Staff sign in again after the clock moved (sessions end when idle). */
      let admin = '';
      const staffAgain = async () => {
        admin = await adminToken(t);
      };
      /** The candidate signs in again after the clock moved: a fresh token. */
      async function signIn(c: { idno: string; token: string }) {
        const r = await post(t, '/api/login', { idno: c.idno, password: 'correct horse battery', ...(await captcha(t)) });
        expect(r.body.success, r.body.msg).toBe(true);
        c.token = r.body.data.token as string;
      }
      examSuite(kind, (s) => ({ t, examId, officeId } = s), LASTING_PASSWORDS);
      const { windows } = examWindows(() => ({ t, examId, officeId }));

      const sweep = async () => (await sweepConfirmation(t.app)).reminded;
      const remindersOf = (applicationId: number, k: ReminderKind) =>
        t.db.kysely
          .selectFrom('message')
          .select(['title', 'content'])
          .where('application_id', '=', applicationId)
          .where('kind', '=', k)
          .execute();
      const smsOf = (mobile: string, k: ReminderKind) =>
        t.db.kysely.selectFrom('sms_outbox').select(['text']).where('mobile', '=', mobile).where('kind', '=', k).execute();
      const positionId = async (name: string) =>
        (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent(name)}`)).body.data.list[0].id as number;

      /** A candidate with a saved, unsubmitted form (and a photo, so that submitting later works). */
      async function drafter() {
        const mobile = freshMobile();
        const c = await registered(t, { mobile });
        const saved = await post(
          t,
          '/api/saveApplication',
          { examId, positionId: await positionId('财务会计'), form: ACCOUNTING_FORM },
          bearer(c.token),
        );
        expect(saved.body.success, saved.body.msg).toBe(true);
        await withPhoto(t, c.token);
        const id = (await get(t, `/api/getApplication?examId=${examId}`, bearer(c.token))).body.data.id as number;
        return { idno: c.idno, token: c.token, id, mobile };
      }
      /** Candidates submitted and approved while registration is open. */
      async function approvedCandidates(n: number) {
        await windows({
          registration_start: -7,
          registration_end: 1,
          review_start: -7,
          review_end: 2,
          confirmation_start: 3,
          confirmation_end: 5,
        });
        await staffAgain();
        const out: Cand[] = [];
        for (let i = 0; i < n; i += 1) {
          const mobile = freshMobile();
          const c = await registered(t, { mobile });
          const { id } = await submittedApplication(t, c.token);
          const r = await post(t, '/api/admin/reviewApplication', { applicationId: id, decision: 'approve' }, bearer(admin));
          expect(r.body.success, r.body.msg).toBe(true);
          out.push({ idno: c.idno, token: c.token, id, mobile });
        }
        return out;
      }
      /** Candidates approved, then confirmed (no fee) in a confirmation window that closes soon after. */
      async function confirmedCandidates(n: number) {
        const out = await approvedCandidates(n);
        await windows(
          {
            registration_start: -12,
            registration_end: -9,
            review_start: -12,
            review_end: -8,
            confirmation_start: -7,
            confirmation_end: 0.1,
          },
          { fee: 0 },
        );
        for (const c of out) {
          await signIn(c);
          expect((await post(t, '/api/confirmApplication', { examId }, bearer(c.token))).body.success).toBe(true);
        }
        return out;
      }
      /** Staff save the exam as it is with these reminder kinds on, through the console's call. */
      async function reminderKinds(kinds: ReminderKind[]) {
        await staffAgain();
        const exam = ((await get(t, '/api/admin/getExamList', bearer(admin))).body.data as { id: number }[]).find((e) => e.id === examId)!;
        const r = await post(t, '/api/admin/saveExam', { ...exam, reminderKinds: kinds }, bearer(admin));
        expect(r.body.success, r.body.msg).toBe(true);
        const saved = ((await get(t, '/api/admin/getExamList', bearer(admin))).body.data as { id: number; reminderKinds: string[] }[]).find(
          (e) => e.id === examId,
        )!;
        expect(saved.reminderKinds).toEqual(kinds);
      }

      it('DEADLINE_SUBMIT: a draft is reminded exactly once the day before registration closes, not at 3 a.m., and not after submitting', async () => {
        beijing('2026-12-02T03:00');
        // Registration closes at 23:00 tonight: inside the 24 hours, but it is 3 a.m.
        await windows({
          registration_start: -7,
          registration_end: 20 / 24,
          review_start: -7,
          review_end: 2,
          confirmation_start: 3,
          confirmation_end: 5,
        });
        const draft = await drafter();
        const lateSubmitter = await drafter();
        const submitter = await drafter();
        expect((await post(t, '/api/submitApplication', { examId }, bearer(submitter.token))).body.success).toBe(true);

        await sweep();
        for (const c of [draft, lateSubmitter, submitter]) expect(await remindersOf(c.id, 'deadline_submit')).toEqual([]);
        expect(await smsOf(draft.mobile, 'deadline_submit')).toEqual([]);

        // 07:00, still quiet: one of them submits before any reminder goes out.
        testClock.advance(4 * HOUR);
        await sweep();
        expect(await remindersOf(draft.id, 'deadline_submit')).toEqual([]);
        await signIn(lateSubmitter);
        await signIn(lateSubmitter);
        expect((await post(t, '/api/submitApplication', { examId }, bearer(lateSubmitter.token))).body.success).toBe(true);

        // 08:00: office hours.
        testClock.advance(HOUR);
        expect(await sweep()).toBeGreaterThanOrEqual(1);
        for (let i = 0; i < 3; i += 1) await sweep();
        testClock.advance(2 * HOUR);
        await sweep();
        const told = await remindersOf(draft.id, 'deadline_submit');
        expect(told).toHaveLength(1);
        expect(told[0]!.title).toBe('报名即将截止');
        expect(told[0]!.content).toMatch(/^您报考的「.+」报名信息尚未提交，报名将于 2026-12-02 23:00 截止，请及时登录系统提交。$/);
        expect(await smsOf(draft.mobile, 'deadline_submit')).toEqual([{ text: told[0]!.content }]);
        // In 我的消息 through the candidate's own call.
        await signIn(draft);
        await signIn(draft);
        const inbox = (await get(t, '/api/getMessageList?page=1&pageSize=10', bearer(draft.token))).body.data.list as { title: string }[];
        expect(inbox.map((m) => m.title)).toContain('报名即将截止');
        for (const c of [lateSubmitter, submitter]) {
          expect(await remindersOf(c.id, 'deadline_submit')).toEqual([]);
          expect(await smsOf(c.mobile, 'deadline_submit')).toEqual([]);
        }
        // Once is the database's rule, not only the sweep's.
        await expect(
          t.db.kysely
            .insertInto('reminder')
            .values({ application_id: draft.id, kind: 'deadline_submit', office_id: officeId, exam_id: examId, sent_at: clock.nowIso() })
            .execute(),
        ).rejects.toThrow();
      });

      it('a kind staff turned off for the exam sends nothing; turned on again, it does', async () => {
        beijing('2026-12-03T09:00');
        await windows({
          registration_start: -7,
          registration_end: 10 / 24,
          review_start: -7,
          review_end: 2,
          confirmation_start: 3,
          confirmation_end: 5,
        });
        const draft = await drafter();
        await reminderKinds(REMINDER_KINDS.filter((k) => k !== 'deadline_submit'));
        await sweep();
        expect(await remindersOf(draft.id, 'deadline_submit')).toEqual([]);
        expect(await smsOf(draft.mobile, 'deadline_submit')).toEqual([]);
        await reminderKinds([...REMINDER_KINDS]);
        await sweep();
        expect(await remindersOf(draft.id, 'deadline_submit')).toHaveLength(1);
        expect(await smsOf(draft.mobile, 'deadline_submit')).toHaveLength(1);
      });

      it('DEADLINE_PAY: approved and not confirmed is reminded once before confirmation closes (not at 21:30); the confirmed are not', async () => {
        beijing('2026-12-04T10:00');
        const [waits, confirms] = (await approvedCandidates(2)) as [Cand, Cand];
        beijing('2026-12-08T21:30');
        // Confirmation open (no fee), closing tomorrow at 17:30.
        await windows(
          {
            registration_start: -10,
            registration_end: -5,
            review_start: -10,
            review_end: -2,
            confirmation_start: -1,
            confirmation_end: 20 / 24,
          },
          { fee: 0 },
        );
        await sweep();
        expect(await remindersOf(waits.id, 'deadline_pay')).toEqual([]);
        await signIn(confirms);
        const confirmed = await post(t, '/api/confirmApplication', { examId }, bearer(confirms.token));
        expect(confirmed.body.success, confirmed.body.msg).toBe(true);
        beijing('2026-12-09T08:00');
        await sweep();
        await sweep();
        const told = await remindersOf(waits.id, 'deadline_pay');
        expect(told).toHaveLength(1);
        expect(told[0]!.content).toContain('确认将于 2026-12-09 17:30 截止');
        expect(await smsOf(waits.mobile, 'deadline_pay')).toHaveLength(1);
        expect(await remindersOf(confirms.id, 'deadline_pay')).toEqual([]);
        expect(await smsOf(confirms.mobile, 'deadline_pay')).toEqual([]);
        // The waiting one confirms now; the deadline passes; nothing more.
        await signIn(waits);
        expect((await post(t, '/api/confirmApplication', { examId }, bearer(waits.token))).body.success).toBe(true);
      });

      it('TICKET_PRINT: a seated candidate who has not downloaded the ticket is reminded once before the first paper; one who downloaded is not. The calendar holds the paper', async () => {
        beijing('2026-12-10T09:00');
        // The exam's other candidates from before are done with; two new ones confirmed.
        const [keeps, prints] = (await confirmedCandidates(2)) as [Cand, Cand];
        await windows({
          registration_start: -12,
          registration_end: -9,
          review_start: -12,
          review_end: -8,
          confirmation_start: -7,
          confirmation_end: -1,
          switch_start: null,
          switch_end: null,
        });
        const paperAt = zonedToInstant('2026-12-11T08:30', 'Asia/Shanghai');
        await savedSubject(t, admin, examId, '公共基础知识', paperAt);
        await savedSite(t, admin, { examId, name: '第一中学', address: '人民路 1 号', rooms: 4, seatsPerRoom: 30 });
        const arranged = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'remind' }, bearer(admin));
        expect(arranged.body.success, arranged.body.msg).toBe(true);
        const pub = await post(
          t,
          '/api/admin/publishTickets',
          { examId, printStart: clock.isoIn(-HOUR), printEnd: zonedToInstant('2026-12-11T08:00', 'Asia/Shanghai') },
          bearer(admin),
        );
        expect(pub.body.success, pub.body.msg).toBe(true);
        const pdf = await t.app.inject({
          method: 'GET',
          url: `/api/getAdmissionTicketPdf?examId=${examId}`,
          headers: bearer(prints.token),
        });
        expect(pdf.statusCode).toBe(200);
        await sweep();
        await sweep();
        const told = await remindersOf(keeps.id, 'ticket_print');
        expect(told).toHaveLength(1);
        expect(told[0]!.content).toContain('第一科考试于 2026-12-11 08:30 开始');
        expect(await smsOf(keeps.mobile, 'ticket_print')).toHaveLength(1);
        expect(await remindersOf(prints.id, 'ticket_print')).toEqual([]);
        expect(await smsOf(prints.mobile, 'ticket_print')).toEqual([]);

        // The calendar: the paper at 08:30 Beijing time is 00:30 UTC, at its site, with an alarm the day before.
        const res = await t.app.inject({ method: 'GET', url: `/api/getExamCalendar?examId=${examId}`, headers: bearer(keeps.token) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toContain('text/calendar');
        const events = icsEvents(res.body);
        const paper = events.find((e) => e.SUMMARY?.includes('公共基础知识'))!;
        expect(paper.DTSTART).toBe('20261211T003000Z');
        expect(paper.DTSTART).toBe(icsUtc(new Date(Date.parse('2026-12-11T08:30:00Z') - 8 * HOUR).toISOString()));
        expect(paper.DTEND).toBe('20261211T023000Z');
        expect(paper.LOCATION).toContain('人民路 1 号');
        expect(paper.VALARM).toBe('yes');
        expect(paper['ALARM.TRIGGER']).toBe('-PT24H');
        // Not the candidate's own? Nobody else's ticket: another candidate without one has no paper.
        const none = await t.app.inject({ method: 'GET', url: `/api/getExamCalendar?examId=${examId}` });
        expect(none.json()).toMatchObject({ success: false });
      });

      it('SWITCH_WINDOW: a cancelled position’s candidate who has not switched is reminded once before the window closes; one who moved is not', async () => {
        beijing('2026-12-20T09:00');
        const [stays, moves] = (await confirmedCandidates(2)) as [Cand, Cand];
        // Confirmation over; the switch window open until 19:00 tonight.
        await windows(
          {
            registration_start: -12,
            registration_end: -9,
            review_start: -12,
            review_end: -8,
            confirmation_start: -7,
            confirmation_end: -1,
            switch_start: -0.5,
            switch_end: 10 / 24,
          },
          { opening_ratio: 3 },
        );
        const check = (await get(t, `/api/admin/getOpeningCheck?examId=${examId}`, bearer(admin))).body.data as {
          positions: { positionId: number; name: string }[];
        };
        const accounting = check.positions.find((p) => p.name === '财务会计')!;
        const other = check.positions.find((p) => p.name === '行政辅助')!;
        const applied = await applyOpeningCheck(t, admin, examId, [{ positionId: accounting.positionId, action: 'cancel', headcount: 0 }]);
        expect(applied.success, applied.msg).toBe(true);
        const switched = await post(t, '/api/switchPosition', { examId, positionId: other.positionId }, bearer(moves.token));
        expect(switched.body.success, switched.body.msg).toBe(true);
        await sweep();
        await sweep();
        const told = await remindersOf(stays.id, 'switch_window');
        expect(told).toHaveLength(1);
        expect(told[0]!.content).toContain('改报将于 2026-12-20 19:00 截止');
        expect(await smsOf(stays.mobile, 'switch_window')).toHaveLength(1);
        expect(await remindersOf(moves.id, 'switch_window')).toEqual([]);

        // The calendar of the one who stays: the switch deadline, its DTSTART half an hour before 19:00 Beijing (10:30 UTC).
        const res = await t.app.inject({ method: 'GET', url: `/api/getExamCalendar?examId=${examId}`, headers: bearer(stays.token) });
        const sw = icsEvents(res.body).find((e) => e.SUMMARY?.includes('改报截止'))!;
        expect(sw.DTSTART).toBe('20261220T103000Z');
        expect(sw.DTEND).toBe('20261220T110000Z');
        expect(sw.VALARM).toBe('yes');
      });
    },
  );
}

/**
 * The sweep's one read of applications, planned by SQLite as it would run at a million rows: the
 * exam's applications through an index on (office_id, exam_id, status), "not yet reminded" through the
 * reminder's primary key, no table scanned (decision 038).
 */
describe('the sweep’s query plan (SQLite)', () => {
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });
  it('reads applications by the exam-and-status index and reminders by their key, for every kind', async () => {
    t = await createTestApp(sqlite);
    const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
    const conn = new SQLite(file, { readonly: true });
    try {
      for (const k of REMINDER_KINDS) {
        const { sql, parameters } = t.app.services.repos.reminders.owingQuery(1, 1, k, 200).compile();
        const plan = (conn.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as { detail: string }[]).map(
          (r) => r.detail,
        );
        expect(
          plan.filter((l) => /^SCAN /.test(l)),
          `${k}: ${plan.join(' | ')}`,
        ).toEqual([]);
        expect(
          plan.some((l) => /^SEARCH a USING (COVERING )?INDEX \w+ \(office_id=\? AND exam_id=\? AND status=\?/.test(l)),
          plan.join(' | '),
        ).toBe(true);
        expect(
          plan.some((l) => /^SEARCH r USING (COVERING )?INDEX sqlite_autoindex_reminder_1 \(application_id=\? AND kind=\?\)/.test(l)),
          plan.join(' | '),
        ).toBe(true);
      }
    } finally {
      conn.close();
    }
  });
});
