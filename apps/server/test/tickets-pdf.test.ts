import { idnoCheckChar } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { TICKET_DEMO_CANDIDATES } from '../src/seed/tickets';
import { clock } from '../src/lib/clock';
import { adminToken, confirmedSuite, savedSite, savedSubject } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { pdfPageSize, pdfText } from './helpers/pdf';

/** The admission ticket as a PDF, through the real server, on SQLite and PostgreSQL. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`admission ticket PDF on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number, tokens: string[];
    const names = ['欧阳晓燕', '李喆'];
    const pdfUrl = () => `/api/getAdmissionTicketPdf?examId=${examId}`;
    const download = (token: string) => t.app.inject({ method: 'GET', url: pdfUrl(), headers: bearer(token) });
    const end = () => new Date(clock.now().getTime() + 5 * 86_400_000).toISOString();
    confirmedSuite(kind, names, (s) => ({ t, admin, examId, tokens } = s));

    beforeAll(async () => {
      await savedSubject(t, admin, examId, '公共基础知识', '2027-03-01T01:00:00Z');
      await savedSite(t, admin, { examId, name: '市第一中学考点', address: '人民路 1 号教学楼', rooms: 1, seatsPerRoom: 30 });
      const arranged = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'pdf' }, bearer(admin));
      expect(arranged.body.success, arranged.body.msg).toBe(true);
    });

    it('is refused before printing opens, with the time, and never cached', async () => {
      const later = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const pub = await post(t, '/api/admin/publishTickets', { examId, printStart: later, printEnd: end() }, bearer(admin));
      expect(pub.body.success, pub.body.msg).toBe(true);
      const res = await download(tokens[0]!);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.json()).toMatchObject({ success: false, msg: expect.stringMatching(/准考证打印将于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 开始/) });
    });

    it('gives the owner an A4 PDF with the Chinese text extractable: name, ticket number, subject, site address and rules', async () => {
      const rules = '一、考生须携带准考证和身份证入场。\n二、本场考试允许携带计算器。';
      const exam = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data.find((e: { id: number }) => e.id === examId);
      const saved = await post(t, '/api/admin/saveExam', { ...exam, examRules: rules }, bearer(admin));
      expect(saved.body.success, saved.body.msg).toBe(true);
      const now = new Date(clock.now().getTime() - 60_000).toISOString();
      expect((await post(t, '/api/admin/publishTickets', { examId, printStart: now, printEnd: end() }, bearer(admin))).body.success).toBe(
        true,
      );
      const ticket = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body.data;
      const res = await download(tokens[0]!);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await pdfText(res.rawPayload);
      for (const expected of [
        names[0]!,
        ticket.ticketNo,
        '公共基础知识',
        '人民路 1 号教学楼',
        '市第一中学考点',
        '考生须知',
        '本场考试允许携带计算器',
      ])
        expect(text).toContain(expected);
      // Office time: 01:00Z is 09:00 in Shanghai.
      expect(text).toContain('09:00 - 11:00');
      expect(text).toMatch(/准\s*考\s*证/);
      expect(await pdfPageSize(res.rawPayload)).toEqual([595, 842]);
    });

    it('is each candidate’s own: another candidate gets their own ticket, no session gets nothing', async () => {
      const mine = await pdfText((await download(tokens[0]!)).rawPayload);
      const theirs = await pdfText((await download(tokens[1]!)).rawPayload);
      expect(theirs).toContain(names[1]!);
      expect(theirs).not.toContain(names[0]!);
      expect(mine).not.toContain(names[1]!);
      const anonymous = await t.app.inject({ method: 'GET', url: pdfUrl() });
      expect(anonymous.json()).toMatchObject({ success: false, errorCode: 401 });
      const stranger = await registered(t);
      const none = await download(stranger.token);
      expect(none.json()).toMatchObject({ success: false, msg: expect.stringMatching(/没有准考证/) });
    });

    it('renders once and reuses the file until what it prints changes', async () => {
      const a = (await download(tokens[0]!)).rawPayload;
      const b = (await download(tokens[0]!)).rawPayload;
      expect(b.equals(a)).toBe(true);
      // A confirmed candidate's photo is locked; staff editing the rules is a change it prints.
      const exam = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data.find((e: { id: number }) => e.id === examId);
      const saved = await post(t, '/api/admin/saveExam', { ...exam, examRules: '考试当天请提前到达。' }, bearer(admin));
      expect(saved.body.success, saved.body.msg).toBe(true);
      const c = (await download(tokens[0]!)).rawPayload;
      expect(c.equals(a)).toBe(false);
      expect(await pdfText(c)).toContain('考试当天请提前到达。');
    });
  });
}

/** The demo office `npm start` seeds: a ticketed candidate signs in and prints; staff check the code. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`demo seed's tickets on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('seats every demo candidate and opens printing: the first one downloads a ticket with their name and photo', async () => {
      const tt = t;
      const first = TICKET_DEMO_CANDIDATES[0]!;
      const idno = first.first17 + idnoCheckChar(first.first17);
      const login = await post(tt, '/api/login', { idno, password: DEMO_CANDIDATE_PASSWORD, ...(await captcha(tt)) });
      expect(login.body.success, login.body.msg).toBe(true);
      const token = login.body.data.token as string;
      const mine = (await get(tt, '/api/getMyApplications', bearer(token))).body.data as { exam: { id: number }; status: string }[];
      expect(mine).toHaveLength(1);
      expect(mine[0]!.status).toBe('confirmed');
      const examId = mine[0]!.exam.id;
      const ticket = await get(tt, `/api/getAdmissionTicket?examId=${examId}`, bearer(token));
      expect(ticket.body.success, ticket.body.msg).toBe(true);
      expect(ticket.body.data.subjects).toHaveLength(2);
      const tickets = await t.db.kysely.selectFrom('admission_ticket').select('ticket_no').where('exam_id', '=', examId).execute();
      expect(tickets).toHaveLength(TICKET_DEMO_CANDIDATES.length);
      const res = await t.app.inject({ method: 'GET', url: `/api/getAdmissionTicketPdf?examId=${examId}`, headers: bearer(token) });
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(res.rawPayload);
      expect(text).toContain(first.name);
      expect(text).toContain(ticket.body.data.ticketNo);
      // The photo is embedded as an image.
      expect(res.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
      const admin = await adminToken(tt);
      const door = await post(tt, '/api/admin/verifyTicket', { code: ticket.body.data.qr, examId }, bearer(admin));
      expect(door.body.success, door.body.msg).toBe(true);
      expect(door.body.data).toMatchObject({ name: first.name, photo: expect.stringMatching(/^data:image\/jpeg;base64,/) });
    });
  });
}
