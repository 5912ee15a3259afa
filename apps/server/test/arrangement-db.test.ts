import { describe, expect, it } from 'vitest';
import { clock } from '../src/lib/clock';
import { confirmedSuite, savedSite, savedSubject } from './helpers/actors';
import { type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/** Subjects, sites and the seat arrangement through the real server, on SQLite and PostgreSQL. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`arrangement on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number, apps: number[], tokens: string[];
    confirmedSuite(kind, 5, (s) => ({ t, admin, examId, apps, tokens } = s));

    const seatsOf = () =>
      t.db.kysely
        .selectFrom('exam_seat')
        .select(['application_id', 'sitting', 'room_id', 'seat', 'subject_id'])
        .where('exam_id', '=', examId)
        .orderBy('sitting')
        .orderBy('room_id')
        .orderBy('seat')
        .execute();

    it('saves subjects and sites; refuses a bad one in Chinese', async () => {
      const bad = await post(t, '/api/admin/saveExamSubject', { examId, name: '', startAt: 'x', endAt: 'y' }, bearer(admin));
      expect(bad.body.success).toBe(false);
      expect(bad.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      for (const [name, start] of [
        ['公共基础知识', '2027-03-01T01:00:00Z'],
        ['专业知识', '2027-03-01T06:00:00Z'],
      ] as const)
        await savedSubject(t, admin, examId, name, start);
      await savedSite(t, admin, { examId, name: '第一中学', address: '人民路 1 号', rooms: 1, seatsPerRoom: 2 });
      const sites = (await get(t, `/api/admin/getExamSites?examId=${examId}`, bearer(admin))).body.data;
      expect(sites).toEqual([
        expect.objectContaining({ code: '01', name: '第一中学', rooms: [expect.objectContaining({ code: '01', seats: 2 })] }),
      ]);
    });

    it('refuses a shortfall naming the sites, and changes nothing', async () => {
      const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 's1' }, bearer(admin));
      expect(r.body.success).toBe(false);
      expect(r.body.msg).toContain('座位不足');
      expect(r.body.msg).toContain('第一中学');
      expect(await seatsOf()).toEqual([]);
    });

    it('arranges every confirmed candidate once per sitting, reproducibly for a seed, audited with the seed', async () => {
      await savedSite(t, admin, { examId, name: '第二中学', address: '解放路 2 号', rooms: 2, seatsPerRoom: 3 });
      const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'seed-42' }, bearer(admin));
      expect(r.body.success, r.body.msg).toBe(true);
      expect(r.body.data.arranged).toBe(5);
      const first = await seatsOf();
      expect(first).toHaveLength(10);
      expect(new Set(first.map((s) => `${s.sitting}|${s.application_id}`)).size).toBe(10);
      const again = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'seed-42' }, bearer(admin));
      expect(again.body.success).toBe(true);
      expect(await seatsOf()).toEqual(first);
      const log = await t.db.kysely.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', '编排考场').execute();
      expect(log.some((l) => l.detail.includes('seed-42'))).toBe(true);
    });

    it('the database refuses a seat given twice', async () => {
      const [s] = await seatsOf();
      await expect(
        t.db.kysely
          .insertInto('exam_seat')
          .values({
            office_id: 1,
            exam_id: examId,
            sitting: s!.sitting,
            subject_id: s!.subject_id,
            application_id: apps[0]!,
            site_id: 1,
            room_id: s!.room_id,
            seat: s!.seat,
          })
          .execute(),
      ).rejects.toThrow();
    });

    it('publishes tickets: unique fixed-length numbers; refused before printStart with the time; then the owner sees theirs', async () => {
      const later = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const end = new Date(clock.now().getTime() + 5 * 86_400_000).toISOString();
      const pub = await post(t, '/api/admin/publishTickets', { examId, printStart: later, printEnd: end }, bearer(admin));
      expect(pub.body.success, pub.body.msg).toBe(true);
      expect(pub.body.data.issued).toBe(5);
      const rows = await t.db.kysely.selectFrom('admission_ticket').select(['ticket_no']).where('exam_id', '=', examId).execute();
      expect(new Set(rows.map((r) => r.ticket_no)).size).toBe(5);
      expect(new Set(rows.map((r) => r.ticket_no.length))).toEqual(new Set([10]));
      const early = await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!));
      expect(early.body.success).toBe(false);
      expect(early.body.msg).toMatch(/准考证打印将于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 开始/);
      const again = await post(t, '/api/admin/arrangeSeats', { examId }, bearer(admin));
      expect(again.body.success).toBe(false);
      const now = new Date(clock.now().getTime() - 60_000).toISOString();
      expect((await post(t, '/api/admin/publishTickets', { examId, printStart: now, printEnd: end }, bearer(admin))).body.data.issued).toBe(
        0,
      );
      const mine = await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!));
      expect(mine.body.success, mine.body.msg).toBe(true);
      expect(mine.res.headers['cache-control']).toBe('private, no-store');
      expect(mine.body.data).toMatchObject({
        site: expect.any(String),
        room: expect.stringMatching(/^\d{2}$/),
        subjects: [expect.objectContaining({ name: '公共基础知识' }), expect.objectContaining({ name: '专业知识' })],
      });
      const theirs = await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[1]!));
      expect(theirs.body.data.ticketNo).not.toBe(mine.body.data.ticketNo);
      expect(rows.map((r) => r.ticket_no)).toContain(mine.body.data.ticketNo);
    });

    it('door check: the signed code passes; forged, altered and other-exam codes are refused; no ID number in it', async () => {
      const mine = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body.data;
      const code = mine.qr as string;
      expect(code).not.toMatch(/\d{17}[\dX]/);
      const ok = await post(t, '/api/admin/verifyTicket', { code }, bearer(admin));
      expect(ok.body.success, ok.body.msg).toBe(true);
      expect(ok.body.data).toMatchObject({ ticketNo: mine.ticketNo, name: mine.name, room: mine.room, seat: mine.seat });
      const parts = code.split('.');
      const other = (await post(t, '/api/admin/verifyTicket', { code, examId: examId + 1 }, bearer(admin))).body;
      expect(other.success).toBe(false);
      const moved = [parts[0], String(examId + 1), parts[2], parts[3]].join('.');
      const altered = [parts[0], parts[1], String(Number(parts[2]) + 1).padStart(10, '0'), parts[3]].join('.');
      const forged = [parts[0], parts[1], parts[2], 'a'.repeat(32)].join('.');
      for (const bad of [moved, altered, forged, 'hello']) {
        const r = await post(t, '/api/admin/verifyTicket', { code: bad }, bearer(admin));
        expect(r.body.success, bad).toBe(false);
        expect(r.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      }
    });

    it('is for admins only', async () => {
      const r = await post(t, '/api/admin/arrangeSeats', { examId }, {});
      expect(r.body.success).toBe(false);
    });
  });
}
