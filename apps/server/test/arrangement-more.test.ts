import { NOT_FOUND_TEXT, SITE_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../src/lib/clock';
import { addStaff, confirmedSuite, draftExam, savedSubject, staffToken } from './helpers/actors';
import { type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { pdfText } from './helpers/pdf';

async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('考点');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The unit of the demo exam's 财务会计 position (submittedApplication applies there). */
const FINANCE = '市财政局财政投资评审中心';
const HOUR = 3_600_000;

/**
 * The arrangement after its first cut, through the real server on SQLite and PostgreSQL: the
 * subjects a position sits, room seats, ticket settings, the print window's end, moving a seat
 * after publishing, site import, room sheets and the export, and the door check by reviewers.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`arrangement, more, on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number, apps: number[], tokens: string[];
    let subjects: number[] = [];
    const names = ['赵一鸣', '钱二丫', '孙三喆', '李四赟'];
    const importSites = async (file: Buffer) => {
      const boundary = '----zksites';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="examId"\r\n\r\n${examId}\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/importExamSites',
        headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return res.json<{ success: boolean; msg?: string; data?: { created: number; errors: { row: number; msg: string }[] } }>();
    };
    const overview = async () => (await get(t, `/api/admin/getArrangement?examId=${examId}`, bearer(admin))).body;
    const seats = () =>
      t.db.kysely
        .selectFrom('exam_seat')
        .select(['id', 'application_id', 'sitting', 'subject_id', 'room_id', 'seat'])
        .where('exam_id', '=', examId)
        .orderBy('sitting')
        .orderBy('room_id')
        .orderBy('seat')
        .execute();
    const examInput = async (over: Record<string, unknown>) => {
      const list = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as Record<string, unknown>[];
      const e = list.find((x) => x.id === examId)!;
      const keys = [
        'id',
        'name',
        'registrationStart',
        'registrationEnd',
        'reviewStart',
        'reviewEnd',
        'confirmationStart',
        'confirmationEnd',
        'config',
        'published',
        'fee',
        'openingRatio',
        'waiverCategories',
        'switchStart',
        'switchEnd',
      ];
      return { ...Object.fromEntries(keys.map((k) => [k, e[k]])), ...over };
    };
    const publish = (printStart: number, printEnd: number) =>
      post(
        t,
        '/api/admin/publishTickets',
        {
          examId,
          printStart: new Date(clock.now().getTime() + printStart).toISOString(),
          printEnd: new Date(clock.now().getTime() + printEnd).toISOString(),
        },
        bearer(admin),
      );
    confirmedSuite(kind, names, (s) => ({ t, admin, examId, apps, tokens } = s));

    beforeAll(async () => {
      subjects = [
        await savedSubject(t, admin, examId, '公共基础知识', '2027-03-01T01:00:00Z'),
        await savedSubject(t, admin, examId, '专业知识', '2027-03-01T06:00:00Z'),
      ];
    });

    it('imports sites from Excel all or nothing, with row-by-row Chinese errors', async () => {
      const bad = await importSites(
        await workbook([
          ['考点名称', '地址', '考场数', '每场座位数', '城市'],
          ['市第一中学', '人民路 1 号', 2, 3, '示范市'],
          ['市第二中学', '解放路 2 号', 1, 300, ''],
          ['市第三中学', '', 1, 30, ''],
          ['市第一中学', '人民路 9 号', 1, 30, ''],
        ]),
      );
      expect(bad.success, bad.msg).toBe(true);
      expect(bad.data!.created).toBe(0);
      expect(bad.data!.errors).toEqual(
        expect.arrayContaining([
          { row: 3, msg: '每场座位数：应为 1 到 99 的整数' },
          { row: 4, msg: '地址：请填写考点地址' },
          { row: 5, msg: '考点名称：市第一中学 与第 2 行重复' },
        ]),
      );
      expect((await overview()).data.sites).toEqual([]);
      const header = await importSites(
        await workbook([
          ['考点名称', '地址'],
          ['甲', '乙'],
        ]),
      );
      expect(header.data!.errors[0]!.msg).toContain('表头缺少列：考场数、每场座位数');
      const garbage = await importSites(Buffer.from('not a workbook at all'));
      expect(garbage.data!.errors[0]!.msg).toMatch(/[\u4e00-\u9fa5]/);

      const good = await importSites(
        await workbook([
          ['地址', '考点名称', '每场座位数', '考场数'],
          ['人民路 1 号', '市第一中学', 3, 2],
        ]),
      );
      expect(good.data).toEqual({ created: 1, errors: [] });
      const sites = (await overview()).data.sites;
      expect(sites).toEqual([
        expect.objectContaining({ code: '01', name: '市第一中学', seats: 6, seated: 0, rooms: [expect.any(Object), expect.any(Object)] }),
      ]);
      const log = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '导入考点').execute();
      expect(log.map((l) => l.detail)).toEqual(['1 个考点']);
    });

    it('考点表模板: the header the import reads and nothing under it, a 说明 sheet; filled in, it imports; admins only', async () => {
      const other = await draftExam(t, admin, '考点模板考试');
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/getExamSiteTemplate?examId=${other}`, headers: bearer(admin) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('考点表模板'));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const [sheet, notes] = book.worksheets;
      expect(sheet!.name).toBe('考点表');
      expect((sheet!.getRow(1).values as unknown[]).slice(1)).toEqual([...SITE_SHEET_COLUMNS]);
      expect(sheet!.actualRowCount).toBe(1);
      expect(notes!.name).toBe('说明');
      expect(notes!.getColumn(1).values).toEqual(expect.arrayContaining([...SITE_SHEET_COLUMNS]));

      const upload = async (file: Buffer) => {
        const boundary = '----zksitetemplate';
        const payload = Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="examId"\r\n\r\n${other}\r\n`),
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="t.xlsx"\r\n\r\n`),
          file,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        return (
          await t.app.inject({
            method: 'POST',
            url: '/api/admin/importExamSites',
            headers: { ...bearer(admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
            payload,
          })
        ).json<{ data: { created: number; errors: { row: number; msg: string }[] } }>();
      };
      // Uploaded as it came, it adds no made-up site.
      expect((await upload(res.rawPayload)).data).toEqual({ created: 0, errors: [{ row: 2, msg: '考点表中没有考点' }] });
      sheet!.addRow(['市实验中学', '解放路 9 号', 2, 30, '杭州市']);
      expect((await upload(Buffer.from(await book.xlsx.writeBuffer()))).data).toEqual({ created: 1, errors: [] });
      const sites = (await get(t, `/api/admin/getArrangement?examId=${other}`, bearer(admin))).body.data.sites as {
        name: string;
        seats: number;
      }[];
      expect(sites.map((x) => [x.name, x.seats])).toEqual([['市实验中学', 60]]);

      await addStaff(t, 1, 'site-template-reviewer', 'reviewer');
      const reviewer = await staffToken(t, 'site-template-reviewer');
      const refused = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getExamSiteTemplate?examId=${other}`,
        headers: bearer(reviewer),
      });
      expect(refused.json()).toMatchObject({ success: false });
      const missing = await t.app.inject({ method: 'GET', url: '/api/admin/getExamSiteTemplate?examId=99999999', headers: bearer(admin) });
      expect(missing.json()).toMatchObject({ success: false, msg: NOT_FOUND_TEXT.exam });
    });

    it('savePosition names the subjects its candidates sit; an empty list, all of them; left out on an edit, unchanged', async () => {
      const list = (await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data as Record<string, unknown>[];
      const p = list.find((x) => x.name === '财务会计')!;
      const input = {
        id: p.id,
        examId,
        code: p.code,
        name: p.name,
        unit: p.unit,
        headcount: p.headcount,
        description: p.description,
        requirements: p.requirements,
      };
      const wrong = await post(t, '/api/admin/savePosition', { ...input, subjectIds: [subjects[0], 999_999] }, bearer(admin));
      expect(wrong.body.success).toBe(false);
      expect(wrong.body.msg).toBe('所选科目不属于该考试，请刷新后再选');
      const one = await post(t, '/api/admin/savePosition', { ...input, subjectIds: [subjects[0]] }, bearer(admin));
      expect(one.body.success, one.body.msg).toBe(true);
      const links = await t.db.kysely
        .selectFrom('position_subject')
        .selectAll()
        .where('position_id', '=', p.id as number)
        .execute();
      expect(links.map((l) => l.subject_id)).toEqual([subjects[0]]);
      // The console's list carries them, so the form opens with the current choice.
      const subjectIdsOf = async () =>
        (
          (await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data as { id: number; subjectIds: number[] }[]
        ).find((x) => x.id === p.id)?.subjectIds;
      expect(await subjectIdsOf()).toEqual([subjects[0]]);
      const r1 = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'one-paper' }, bearer(admin));
      expect(r1.body.success, r1.body.msg).toBe(true);
      expect(new Set((await seats()).map((s) => s.subject_id))).toEqual(new Set([subjects[0]]));
      expect(await seats()).toHaveLength(4);

      // An edit from a form that does not show subjects keeps them; an empty list means all.
      const kept = await post(t, '/api/admin/savePosition', input, bearer(admin));
      expect(kept.body.success, kept.body.msg).toBe(true);
      expect(
        (
          await t.db.kysely
            .selectFrom('position_subject')
            .selectAll()
            .where('position_id', '=', p.id as number)
            .execute()
        ).map((l) => l.subject_id),
      ).toEqual([subjects[0]]);
      const all = await post(t, '/api/admin/savePosition', { ...input, subjectIds: [] }, bearer(admin));
      expect(all.body.success, all.body.msg).toBe(true);
      expect(await subjectIdsOf()).toEqual([]);
      expect(
        await t.db.kysely
          .selectFrom('position_subject')
          .selectAll()
          .where('position_id', '=', p.id as number)
          .execute(),
      ).toEqual([]);
      const r2 = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'both-papers' }, bearer(admin));
      expect(r2.body.success, r2.body.msg).toBe(true);
      expect(await seats()).toHaveLength(8);
    });

    it("a room's seats may be edited, never below the highest seat given", async () => {
      const rooms = (await overview()).data.sites[0].rooms as { id: number; code: string; seats: number; seated: number }[];
      expect(rooms.map((r) => r.seated)).toEqual([3, 1]);
      const fewer = await post(t, '/api/admin/saveExamRoom', { roomId: rooms[0]!.id, seats: 2 }, bearer(admin));
      expect(fewer.body.success).toBe(false);
      expect(fewer.body.msg).toContain('座位数不能少于 3');
      const bad = await post(t, '/api/admin/saveExamRoom', { roomId: rooms[0]!.id, seats: 0 }, bearer(admin));
      expect(bad.body.success).toBe(false);
      expect(bad.body.msg).toMatch(/[\u4e00-\u9fa5]/);
      const missing = await post(t, '/api/admin/saveExamRoom', { roomId: 999_999, seats: 5 }, bearer(admin));
      expect(missing.body.success).toBe(false);
      const more = await post(t, '/api/admin/saveExamRoom', { roomId: rooms[0]!.id, seats: 5 }, bearer(admin));
      expect(more.body.success, more.body.msg).toBe(true);
      expect((await overview()).data.sites[0].seats).toBe(8);
    });

    it('the exam code and ticket template are set with the exam, checked by the shared rule', async () => {
      const bad = await post(t, '/api/admin/saveExam', await examInput({ examCode: 'AB' }), bearer(admin));
      expect(bad.body.success).toBe(false);
      expect(bad.body.msg).toContain('考试代码应为 2 位数字');
      const badTemplate = await post(t, '/api/admin/saveExam', await examInput({ ticketTemplate: '{YY}{EXAM}' }), bearer(admin));
      expect(badTemplate.body.success).toBe(false);
      const saved = await post(
        t,
        '/api/admin/saveExam',
        await examInput({ examCode: '07', ticketTemplate: '9{YY}{EXAM}{SITE}{ROOM}{SEAT}', examRules: '请带身份证。' }),
        bearer(admin),
      );
      expect(saved.body.success, saved.body.msg).toBe(true);
      const list = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as Record<string, unknown>[];
      expect(list.find((x) => x.id === examId)).toMatchObject({
        examCode: '07',
        ticketTemplate: '9{YY}{EXAM}{SITE}{ROOM}{SEAT}',
        examRules: '请带身份证。',
        ticketsPublishedAt: null,
      });
    });

    it('publishes with the template; then the code and template are locked and rooms fixed', async () => {
      const pub = await publish(-HOUR, 5 * 24 * HOUR);
      expect(pub.body.success, pub.body.msg).toBe(true);
      expect(pub.body.data.issued).toBe(4);
      const mine = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body;
      expect(mine.success, mine.msg).toBe(true);
      expect(mine.data.ticketNo).toMatch(/^92707010[12]0[1-5]$/);

      const locked = await post(t, '/api/admin/saveExam', await examInput({ examCode: '08' }), bearer(admin));
      expect(locked.body.success).toBe(false);
      expect(locked.body.msg).toBe('准考证已发布，考试代码和准考证号模板不能再修改');
      const same = await post(t, '/api/admin/saveExam', await examInput({ examCode: '07' }), bearer(admin));
      expect(same.body.success, same.body.msg).toBe(true);
      const rooms = (await overview()).data.sites[0].rooms as { id: number }[];
      const room = await post(t, '/api/admin/saveExamRoom', { roomId: rooms[0]!.id, seats: 9 }, bearer(admin));
      expect(room.body.success).toBe(false);
      expect(room.body.msg).toContain('准考证已发布');
    });

    it('after print_end the ticket and its PDF are refused, naming the end', async () => {
      const closed = await publish(-2 * 24 * HOUR, -HOUR);
      expect(closed.body.success, closed.body.msg).toBe(true);
      const ticket = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body;
      expect(ticket.success).toBe(false);
      expect(ticket.msg).toMatch(/^准考证打印已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 结束/);
      const pdf = await t.app.inject({ method: 'GET', url: `/api/getAdmissionTicketPdf?examId=${examId}`, headers: bearer(tokens[0]!) });
      expect(pdf.headers['content-type']).toMatch(/application\/json/);
      expect(pdf.json<{ success: boolean; msg: string }>().msg).toContain('结束');
      expect((await publish(-HOUR, 5 * 24 * HOUR)).body.success).toBe(true);
    });

    it('moves one candidate after publishing: audited, ticket number kept, PDF rendered anew; taken seats and other papers refused', async () => {
      const before = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body.data;
      const first = await t.app.inject({ method: 'GET', url: `/api/getAdmissionTicketPdf?examId=${examId}`, headers: bearer(tokens[0]!) });
      expect(first.headers['content-type']).toBe('application/pdf');
      expect(t.app.services.tickets.pdfCached(1, apps[0]!)).toBe(true);
      const rooms = (await overview()).data.sites[0].rooms as { id: number; code: string }[];
      const room1 = rooms[0]!;

      const moved = await post(t, '/api/admin/moveSeat', { examId, applicationId: apps[0], roomId: room1.id, seatNo: 5 }, bearer(admin));
      expect(moved.body.success, moved.body.msg).toBe(true);
      expect(moved.body.data.ticketNo).toBe(before.ticketNo);
      expect(t.app.services.tickets.pdfCached(1, apps[0]!)).toBe(false);
      const after = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[0]!))).body.data;
      expect(after).toMatchObject({ ticketNo: before.ticketNo, room: '01', seat: 5 });
      const pdf = await t.app.inject({ method: 'GET', url: `/api/getAdmissionTicketPdf?examId=${examId}`, headers: bearer(tokens[0]!) });
      const text = await pdfText(pdf.rawPayload);
      expect(text).toContain('第 05 号座位');
      expect(text).toContain(before.ticketNo);
      const log = await t.db.kysely.selectFrom('audit_log').select(['target', 'detail']).where('action', '=', '调动考生座位').execute();
      expect(log).toEqual([{ target: `application:${apps[0]}`, detail: expect.stringContaining('→ 01 考场 5 号') }]);

      // Another candidate onto the same seat: the database refuses, the answer says so.
      const taken = await post(t, '/api/admin/moveSeat', { examId, applicationId: apps[1], roomId: room1.id, seatNo: 5 }, bearer(admin));
      expect(taken.body.success).toBe(false);
      expect(taken.body.msg).toContain('第 01 考场第 05 号座位已有考生');
      const tooFar = await post(t, '/api/admin/moveSeat', { examId, applicationId: apps[1], roomId: room1.id, seatNo: 6 }, bearer(admin));
      expect(tooFar.body.msg).toBe('第 01 考场只有 5 个座位');

      // One seat for the whole exam: every paper moves (a subjectId of old clients is ignored).
      const room2 = rooms[1]!;
      const single = await post(
        t,
        '/api/admin/moveSeat',
        { examId, applicationId: apps[1], subjectId: subjects[0], roomId: room2.id, seatNo: 1 },
        bearer(admin),
      );
      expect(single.body.success, single.body.msg).toBe(true);
      const placed = await seats();
      expect(placed.filter((s) => s.application_id === apps[1]).map((s) => [s.subject_id, s.room_id, s.seat])).toEqual([
        [subjects[0], room2.id, 1],
        [subjects[1], room2.id, 1],
      ]);

      // A room whose candidates sit another paper at that sitting is refused (a second paper at
      // the same time, put there directly: the console fixes subjects before publishing).
      const third = await post(
        t,
        '/api/admin/saveExamSubject',
        { examId, name: '加试', startAt: '2027-03-01T09:00:00Z', endAt: '2027-03-01T10:00:00Z' },
        bearer(admin),
      );
      expect(third.body.success).toBe(false);
      const stamp = clock.nowIso();
      const otherPaper = (
        await t.db.kysely
          .insertInto('exam_subject')
          .values({
            office_id: 1,
            exam_id: examId,
            name: '同场另卷',
            start_at: '2027-03-01T01:00:00Z',
            end_at: '2027-03-01T03:00:00Z',
            created_at: stamp,
            updated_at: stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      const lone = placed.find((s) => s.room_id === room2.id && s.subject_id === subjects[0])!;
      await t.db.kysely.updateTable('exam_seat').set({ subject_id: otherPaper }).where('id', '=', lone.id).execute();
      const mixed = await post(
        t,
        '/api/admin/moveSeat',
        { examId, applicationId: apps[2], subjectId: subjects[0], roomId: room2.id, seatNo: 2 },
        bearer(admin),
      );
      expect(mixed.body.success).toBe(false);
      expect(mixed.body.msg).toContain('考的是另一科目');
      await t.db.kysely.updateTable('exam_seat').set({ subject_id: subjects[0]! }).where('id', '=', lone.id).execute();
      await t.db.kysely.deleteFrom('exam_subject').where('id', '=', otherPaper).execute();
      expect(await seats()).toEqual(placed);
      expect(await t.db.kysely.selectFrom('audit_log').select('id').where('action', '=', '调动考生座位').execute()).toHaveLength(2);

      const reviewerless = await post(t, '/api/admin/moveSeat', { examId, applicationId: apps[1], roomId: room1.id, seatNo: 4 }, {});
      expect(reviewerless.body.success).toBe(false);
    });

    it('room sheets: one PDF per site with sign-in sheets and door lists, real Chinese text; rendered to an image', async () => {
      const site = (await overview()).data.sites[0] as { id: number; rooms: { id: number }[] };
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getRoomSheetsPdf?examId=${examId}&siteId=${site.id}`,
        headers: bearer(admin),
      });
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const text = await pdfText(res.rawPayload);
      for (const s of ['考场签到表', '考生签名', '第 01 考场', '第 02 考场', '市第一中学', '公共基础知识', '专业知识', ...names])
        expect(text).toContain(s);
      const tickets = await t.db.kysely.selectFrom('admission_ticket').select('ticket_no').where('exam_id', '=', examId).execute();
      for (const tk of tickets) expect(text).toContain(tk.ticket_no);

      const one = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getRoomSheetsPdf?examId=${examId}&siteId=${site.id}&roomId=${site.rooms[1]!.id}`,
        headers: bearer(admin),
      });
      const oneText = await pdfText(one.rawPayload);
      expect(oneText).toContain('第 02 考场');
      expect(oneText).not.toContain('第 01 考场');

      // poppler draws the first page: a page with real glyphs and photos is far from blank.
      const dir = mkdtempSync(path.join(tmpdir(), 'zk-room-sheet-'));
      writeFileSync(path.join(dir, 'sheet.pdf'), res.rawPayload);
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '60',
        '-f',
        '1',
        '-l',
        '1',
        path.join(dir, 'sheet.pdf'),
        path.join(dir, `page-${kind.name}`),
      ]);
      const png = readdirSync(dir).find((f) => f.endsWith('.png'))!;
      expect(statSync(path.join(dir, png)).size).toBeGreaterThan(10_000);
      // Kept when ZK_KEEP_RENDERS is set, to look at the page.
      if (!process.env.ZK_KEEP_RENDERS) rmSync(dir, { recursive: true, force: true });

      const missing = await get(t, `/api/admin/getRoomSheetsPdf?examId=${examId}&siteId=999999`, bearer(admin));
      expect(missing.body.success).toBe(false);
      expect(missing.body.msg).toBe(NOT_FOUND_TEXT.site);
    });

    it('exports the arrangement to .xlsx and shows the overview', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportArrangement?examId=${examId}`, headers: bearer(admin) });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: string[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String((v ?? '') as string | number))));
      expect(rows[0]).toEqual(['考点', '考场', '座位号', '准考证号', '姓名', '岗位', '科目', '开考时间', '身份核验']);
      expect(rows).toHaveLength(9);
      expect(rows.slice(1).every((r) => /^9\d{10}$/.test(r[3]!) && r[0]!.includes('市第一中学') && r[5]!.includes('财务会计'))).toBe(true);
      expect(new Set(rows.slice(1).map((r) => r[4]))).toEqual(new Set(names));
      const o = (await overview()).data;
      expect(o).toMatchObject({ confirmed: 4, seated: 4, seed: 'both-papers', examCode: '07', ticketsPublishedAt: expect.any(String) });
    });

    it('door check by reviewers within their units, every check audited; others refused', async () => {
      await addStaff(t, 1, 'door-finance', 'reviewer', [FINANCE]);
      await addStaff(t, 1, 'door-other', 'reviewer', ['某个别的单位']);
      const code = (await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(tokens[1]!))).body.data.qr as string;
      const finance = await staffToken(t, 'door-finance');
      const ok = await post(t, '/api/admin/verifyTicket', { code, examId }, bearer(finance));
      expect(ok.body.success, ok.body.msg).toBe(true);
      expect(ok.body.data).toMatchObject({ name: names[1], site: '市第一中学', photo: expect.stringMatching(/^data:image\//) });
      const other = await post(t, '/api/admin/verifyTicket', { code, examId }, bearer(await staffToken(t, 'door-other')));
      expect(other.body.success).toBe(false);
      expect(other.body.msg).toBe('该考生不在您的负责范围内，请由管理员核验');
      const forged = await post(
        t,
        '/api/admin/verifyTicket',
        { code: `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`, examId },
        bearer(finance),
      );
      expect(forged.body.success).toBe(false);
      const log = await t.db.kysely.selectFrom('audit_log').select(['detail']).where('action', '=', '验证准考证').execute();
      expect(log).toHaveLength(3);
      expect(log.filter((l) => l.detail.startsWith('未通过'))).toHaveLength(2);
    });
  });
}
