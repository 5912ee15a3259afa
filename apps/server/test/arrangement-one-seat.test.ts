import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { adminToken, confirmedSuite, draftExam, LASTING_PASSWORDS, savedSite, savedSubject } from './helpers/actors';
import { type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { pdfText } from './helpers/pdf';

const DAY = 86_400_000;
/** Two papers on one day far from the demo's exams: 09:00–11:00 and 14:00–16:30 in Beijing. */
const MORNING = '2027-05-10T01:00:00.000Z';
const AFTERNOON = '2027-05-10T06:00:00.000Z';

/**
 * One seat per candidate for the whole exam, candidates of a cancelled position left out, the
 * second exam's free code and the door check's record of check-ins, through the real server on
 * SQLite and PostgreSQL.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `one seat, cancelled posts, check-in on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, apps: number[], tokens: string[];
      let siteId = 0;
      const names = ['周一凡', '吴二娜', '郑三石', '王四海', '冯五月', '褚六安'];
      // The clock goes to the exam day in 2027: staff passwords that last that long.
      confirmedSuite(kind, names, (s) => ({ t, admin, examId, apps, tokens } = s), LASTING_PASSWORDS);
      const cancelledName = names[4]!;
      const overview = async () => (await get(t, `/api/admin/getArrangement?examId=${examId}`, bearer(admin))).body.data;
      const seatsOf = (applicationId: number) =>
        t.db.kysely
          .selectFrom('exam_seat as s')
          .innerJoin('exam_room as r', 'r.id', 's.room_id')
          .innerJoin('exam_site as si', 'si.id', 's.site_id')
          .select(['s.subject_id', 's.site_id', 's.room_id', 's.seat', 'r.code as room', 'si.code as site'])
          .where('s.application_id', '=', applicationId)
          .orderBy('s.sitting')
          .execute();
      let originalPosition = 0;

      beforeAll(async () => {
        await savedSubject(t, admin, examId, '公共基础知识', MORNING);
        await savedSubject(t, admin, examId, '职业能力倾向测验', AFTERNOON, '2027-05-10T08:30:00.000Z');
        siteId = await savedSite(t, admin, { examId, name: '青川中学考点', address: '青川县城关镇 1 号', rooms: 2, seatsPerRoom: 3 });
        // The last candidate's position was cancelled at close-out; the switch window is still open.
        const app = await t.db.kysely.selectFrom('application').select('position_id').where('id', '=', apps[4]!).executeTakeFirstOrThrow();
        originalPosition = app.position_id!;
        const now = clock.nowIso();
        const cancelled = await t.db.kysely
          .insertInto('position')
          .values({
            office_id: 1,
            exam_id: examId,
            code: 'QC02',
            name: '已取消岗位',
            unit: '青川县某单位',
            headcount: 1,
            description: '',
            requirements: '{}',
            cancelled_at: now,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await t.db.kysely.updateTable('application').set({ position_id: cancelled.id }).where('id', '=', apps[4]!).execute();
        await t.db.kysely
          .updateTable('exam')
          .set({ switch_start: new Date(Date.now() - DAY).toISOString(), switch_end: new Date(Date.now() + DAY).toISOString() })
          .where('id', '=', examId)
          .execute();
        // The sixth confirms only after the tickets are published (补排 below).
        await t.db.kysely.updateTable('application').set({ status: 'approved' }).where('id', '=', apps[5]!).execute();
      });

      it('leaves out a candidate whose position was cancelled while the switch window is open, and says so; the sign-in sheets never list them', async () => {
        const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'one-seat' }, bearer(admin));
        expect(r.body.success, r.body.msg).toBe(true);
        expect(r.body.data).toMatchObject({ arranged: 4, awaitingSwitch: 1, note: '另有 1 名考生所报岗位已取消、改报期未结束，未编排' });
        expect(await seatsOf(apps[4]!)).toEqual([]);
        // The console's picture, which the publish confirmation names.
        expect(await overview()).toMatchObject({
          confirmed: 5,
          seated: 4,
          awaitingSwitch: 1,
          awaitingSwitchNote: '另有 1 名考生所报岗位已取消、改报期未结束，未编排',
          unseated: 0,
        });
        const sheets = await t.app.inject({
          method: 'GET',
          url: `/api/admin/getRoomSheetsPdf?examId=${examId}&siteId=${siteId}`,
          headers: bearer(admin),
        });
        const text = await pdfText(sheets.rawPayload);
        if (process.env.SHOTS_DIR) await writeFile(path.join(process.env.SHOTS_DIR, `signin-${kind.name}.pdf`), sheets.rawPayload);
        expect(text).toContain(names[0]);
        expect(text).not.toContain(cancelledName);
      });

      it('after the switch, arranging again seats them like everyone else', async () => {
        await t.db.kysely.updateTable('application').set({ position_id: originalPosition }).where('id', '=', apps[4]!).execute();
        expect(await overview()).toMatchObject({ awaitingSwitch: 0, awaitingSwitchNote: null, unseated: 1 });
        const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'one-seat' }, bearer(admin));
        expect(r.body.data).toMatchObject({ arranged: 5, awaitingSwitch: 0, note: null });
        expect(await seatsOf(apps[4]!)).toHaveLength(2);
      });

      it('gives each candidate one site, room and seat for every paper, the seat of the ticket number, everywhere it is shown', async () => {
        const pub = await post(
          t,
          '/api/admin/publishTickets',
          { examId, printStart: new Date(Date.now() - 60_000).toISOString(), printEnd: new Date(Date.now() + 5 * DAY).toISOString() },
          bearer(admin),
        );
        expect(pub.body.success, pub.body.msg).toBe(true);
        expect(pub.body.data.issued).toBe(5);
        const desks = new Set<string>();
        for (const [i, applicationId] of apps.slice(0, 5).entries()) {
          const seats = await seatsOf(applicationId);
          expect(seats).toHaveLength(2);
          expect(new Set(seats.map((s) => `${s.site_id}|${s.room_id}|${s.seat}`)).size).toBe(1);
          const s = seats[0]!;
          desks.add(`${s.room_id}|${s.seat}`);
          const ticket = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[i]!))).body.data;
          const seat = String(s.seat).padStart(2, '0');
          // {YY}{EXAM}{SITE}{ROOM}{SEAT}
          expect(ticket.ticketNo.slice(-6)).toBe(`${s.site}${s.room}${seat}`);
          expect(ticket).toMatchObject({
            room: s.room,
            seat: s.seat,
            subjects: [expect.objectContaining({ room: s.room, seat: s.seat }), expect.objectContaining({ room: s.room, seat: s.seat })],
          });
          const pdf = await t.app.inject({
            method: 'GET',
            url: `/api/getAdmissionTicketPdf?examId=${examId}`,
            headers: bearer(tokens[i]!),
          });
          const text = await pdfText(pdf.rawPayload);
          expect(text).toContain(`第 ${seat} 号座位`);
          // To look at (rendered with pdftoppm): SHOTS_DIR=/tmp/shots npx vitest …
          if (process.env.SHOTS_DIR && i === 0)
            await writeFile(path.join(process.env.SHOTS_DIR, `ticket-${kind.name}.pdf`), pdf.rawPayload);
        }
        // Five candidates, five desks: nobody shares a desk in the afternoon.
        expect(desks.size).toBe(5);
        // The sign-in sheet of each paper lists each candidate at that same seat.
        const rows = await t.db.kysely
          .selectFrom('exam_seat')
          .select(['sitting', 'room_id', 'seat'])
          .where('exam_id', '=', examId)
          .execute();
        expect(new Set(rows.map((r) => `${r.sitting}|${r.room_id}|${r.seat}`)).size).toBe(10);
      });

      it('补排 after publishing: a candidate confirmed later gets a free seat for every paper and a ticket; nobody else moves', async () => {
        const before = await t.db.kysely
          .selectFrom('exam_seat')
          .select(['id', 'application_id', 'room_id', 'seat'])
          .orderBy('id')
          .execute();
        await t.db.kysely.updateTable('application').set({ status: 'confirmed' }).where('id', '=', apps[5]!).execute();
        expect(await overview()).toMatchObject({ confirmed: 6, seated: 5, unseated: 1 });
        const r = await post(t, '/api/admin/arrangeLateSeats', { examId }, bearer(admin));
        expect(r.body.success, r.body.msg).toBe(true);
        expect(r.body.data).toEqual({ arranged: 1, unplaced: 0 });
        const seats = await seatsOf(apps[5]!);
        expect(seats).toHaveLength(2);
        expect(new Set(seats.map((s) => `${s.room_id}|${s.seat}`)).size).toBe(1);
        const ticket = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[5]!))).body.data;
        expect(ticket.ticketNo.slice(-6)).toBe(`${seats[0]!.site}${seats[0]!.room}${String(seats[0]!.seat).padStart(2, '0')}`);
        // The others' seats as they were, and no desk given twice at any sitting.
        const after = await t.db.kysely.selectFrom('exam_seat').select(['id', 'application_id', 'room_id', 'seat']).orderBy('id').execute();
        expect(after.slice(0, before.length)).toEqual(before);
        const all = await t.db.kysely
          .selectFrom('exam_seat')
          .select(['sitting', 'room_id', 'seat'])
          .where('exam_id', '=', examId)
          .execute();
        expect(new Set(all.map((x) => `${x.sitting}|${x.room_id}|${x.seat}`)).size).toBe(12);
        const again = await post(t, '/api/admin/arrangeLateSeats', { examId }, bearer(admin));
        expect(again.body.success).toBe(false);
        expect(again.body.msg).toContain('没有需要补排的考生');
        expect(await overview()).toMatchObject({ confirmed: 6, unseated: 0 });
      });

      it('door check: records the first check-in per paper, a second scan is a repeat with the first time; the paper under way is named', async () => {
        const qr = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body.data.qr as string;
        testClock.set('2027-05-10T00:40:00.000Z'); // 08:40 in Beijing: before the morning paper
        // Signed in on the exam day (the session of months ago has long expired).
        let door = await adminToken(t);
        const first = await post(t, '/api/admin/verifyTicket', { code: qr, examId }, bearer(door));
        expect(first.body.success, first.body.msg).toBe(true);
        expect(first.body.data).toMatchObject({
          repeat: false,
          checkedInAt: '2027-05-10T00:40:00.000Z',
          paper: { name: '公共基础知识', startAt: MORNING },
        });
        testClock.set('2027-05-10T01:02:00.000Z');
        const again = await post(t, '/api/admin/verifyTicket', { code: qr, examId }, bearer(door));
        expect(again.body.data).toMatchObject({ repeat: true, checkedInAt: '2027-05-10T00:40:00.000Z', paper: { name: '公共基础知识' } });
        // The afternoon paper is another entry.
        testClock.set('2027-05-10T05:50:00.000Z');
        door = await adminToken(t);
        const afternoon = await post(t, '/api/admin/verifyTicket', { code: qr, examId }, bearer(door));
        expect(afternoon.body.data).toMatchObject({
          repeat: false,
          checkedInAt: '2027-05-10T05:50:00.000Z',
          paper: { name: '职业能力倾向测验' },
        });
        const rows = await t.db.kysely
          .selectFrom('ticket_check_in')
          .select(['application_id', 'count', 'first_at', 'last_at'])
          .where('exam_id', '=', examId)
          .orderBy('first_at')
          .execute();
        expect(rows.map((r) => [r.application_id, Number(r.count), r.first_at, r.last_at])).toEqual([
          [apps[0], 2, '2027-05-10T00:40:00.000Z', '2027-05-10T01:02:00.000Z'],
          [apps[0], 1, '2027-05-10T05:50:00.000Z', '2027-05-10T05:50:00.000Z'],
        ]);
        const log = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '验证准考证').execute();
        expect(log.some((l) => l.detail.includes('重复入场'))).toBe(true);
        // At the door of another exam: refused, naming the ticket's exam.
        const exams = (await get(t, '/api/admin/getExamList', bearer(door))).body.data as { id: number; name: string }[];
        const elsewhere = exams.find((e) => e.id !== examId)!;
        const wrong = await post(t, '/api/admin/verifyTicket', { code: qr, examId: elsewhere.id }, bearer(door));
        expect(wrong.body.success).toBe(false);
        expect(wrong.body.msg).toBe(
          `该准考证属于「${exams.find((e) => e.id === examId)!.name}」，不是本场考试；如在该考试的考场，请在上方切换考试`,
        );
        // A refused code records nothing.
        const forged = await post(t, '/api/admin/verifyTicket', { code: `${qr.slice(0, -4)}0000`, examId }, bearer(door));
        expect(forged.body.success).toBe(false);
        expect(await t.db.kysely.selectFrom('ticket_check_in').select('id').execute()).toHaveLength(2);
      });

      it('the door check opens on the exam with a paper today on the office clock', async () => {
        testClock.set('2027-05-10T03:00:00.000Z');
        const door = await adminToken(t);
        const r = await get(t, '/api/admin/getDoorCheckExam', bearer(door));
        expect(r.body.data).toEqual({ examId, today: true });
        // 23:30 the night before in Beijing (still the 9th there): the next exam with tickets, not today's.
        testClock.set('2027-05-09T15:30:00.000Z');
        const before = await get(t, '/api/admin/getDoorCheckExam', bearer(door));
        expect(before.body.data).toEqual({ examId, today: false });
      });

      it('a second exam of the office gets a free exam code; editing one to a code in use is refused', async () => {
        const codeOf = async (id: number) =>
          (await t.db.kysely.selectFrom('exam').select('exam_code').where('id', '=', id).executeTakeFirstOrThrow()).exam_code;
        const a = await draftExam(t, admin, '2030 年度第一场');
        const b = await draftExam(t, admin, '2030 年度第二场');
        expect(await codeOf(a)).not.toBe(await codeOf(b));
        // The console's form sends 01 by default: a taken 01 is replaced by a free code, and answered.
        const list = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as Record<string, unknown>[];
        const base = list.find((e) => e.id === a)!;
        const keys = [
          'name',
          'registrationStart',
          'registrationEnd',
          'reviewStart',
          'reviewEnd',
          'confirmationStart',
          'confirmationEnd',
          'config',
          'published',
        ];
        const input = Object.fromEntries(keys.map((k) => [k, base[k]]));
        const c = await post(t, '/api/admin/saveExam', { ...input, name: '2030 年度第三场', examCode: await codeOf(a) }, bearer(admin));
        expect(c.body.success, c.body.msg).toBe(true);
        const codes = new Set([await codeOf(a), await codeOf(b), await codeOf(c.body.data.id as number)]);
        expect(codes.size).toBe(3);
        expect(c.body.data.examCode).toBe(await codeOf(c.body.data.id as number));
        const edit = await post(
          t,
          '/api/admin/saveExam',
          { ...input, id: b, name: '2030 年度第二场', examCode: await codeOf(a) },
          bearer(admin),
        );
        expect(edit.body.success).toBe(false);
        expect(edit.body.msg).toContain('已用于本机构的「2030 年度第一场」');
      });
    },
  );
}
