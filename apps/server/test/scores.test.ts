import { idnoCheckChar, zonedDateTime } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { migrateToLatest } from '../src/db/migrate';
import { seedDemo } from '../src/seed/demo';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { clock } from '../src/lib/clock';
import { createDataCipher } from '../src/lib/crypto';
import { addStaff, adminToken, confirmedSuite, savedSite, savedSubject, staffToken } from './helpers/actors';
import { HEAVY_WORKER, TEST_ADMIN_PASSWORD, TEST_CAPTCHA, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { pdfText } from './helpers/pdf';
import { DATABASES } from './helpers/databases';
import { multipart, sheet, type Cell } from './helpers/sheets';

/** The names the candidates register with, in the order of their scores below. */
const NAMES = ['王小明', '李华', '赵敏', '钱多多', '孙悦', '周杰', '吴婷'];

/**
 * Scores through the real server on SQLite and PostgreSQL: seven candidates of one position
 * (财务会计, 2 posts) seated and ticketed through the real calls, then imported, ranked,
 * published, queried and listed.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`scores on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number, apps: number[], tokens: string[];
    let subjects: { id: number; name: string }[];
    /** Ticket number of each candidate, in NAMES order. */
    let tickets: string[];

    const importScores = (file: Buffer, dryRun: boolean, token = admin) => {
      const { payload, headers } = multipart({ examId: String(examId), dryRun: String(dryRun) }, file);
      return t.app
        .inject({ method: 'POST', url: '/api/admin/importScores', payload, headers: { ...headers, ...bearer(token) } })
        .then((res) => res.json<{ success: boolean; msg?: string; data?: any }>());
    };
    /** The exam's score rules, each paper out of 100 with weight 1, saved through the console. */
    const saveRules = async (rule: { passLine: number; interviewRatio: number; bonusEnabled: boolean }) => {
      const r = await post(
        t,
        '/api/admin/saveScoreRules',
        { examId, subjects: subjects.map((s) => ({ subjectId: s.id, fullMarks: 100, weight: 1 })), ...rule },
        bearer(admin),
      );
      expect(r.body.success, r.body.msg).toBe(true);
    };
    const scoreCount = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('score_total')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('exam_id', '=', examId)
            .executeTakeFirst()
        )?.n,
      );
    confirmedSuite(kind, NAMES, (s) => ({ t, admin, examId, apps, tokens } = s));

    beforeAll(async () => {
      await savedSubject(t, admin, examId, '公共基础知识', '2027-03-01T01:00:00Z');
      await savedSubject(t, admin, examId, '专业知识', '2027-03-01T06:00:00Z');
      await savedSite(t, admin, { examId, name: '第一中学', address: '人民路 1 号', rooms: 1, seatsPerRoom: 10 });
      expect((await post(t, '/api/admin/arrangeSeats', { examId, seed: 'scores' }, bearer(admin))).body.success).toBe(true);
      const from = new Date(clock.now().getTime() - 60_000).toISOString();
      const to = new Date(clock.now().getTime() + 5 * 86_400_000).toISOString();
      expect((await post(t, '/api/admin/publishTickets', { examId, printStart: from, printEnd: to }, bearer(admin))).body.success).toBe(
        true,
      );
      tickets = [];
      for (const token of tokens)
        tickets.push((await get(t, `/api/getAdmissionTicket?examId=${examId}`, bearer(token))).body.data.ticketNo as string);
      subjects = (await get(t, `/api/admin/getExamSubjects?examId=${examId}`, bearer(admin))).body.data;
    });

    /**
     * Totals 80, 75, 75, 75 (ties), 50 (below the line), absent, void: with 2 posts at 1:1 the
     * list has 2 places, the 2nd is a three-way tie at 75, so four enter.
     */
    const goodRows = (): Cell[][] => [
      ['准考证号', '姓名', '公共基础知识', '专业知识', '加分'],
      [tickets[0]!, NAMES[0]!, 40, 40, ''],
      [tickets[1]!, NAMES[1]!, 35, 40, ''],
      [tickets[2]!, NAMES[2]!, 37.5, 37.5, ''],
      [tickets[3]!, NAMES[3]!, 40, 35, ''],
      [tickets[4]!, NAMES[4]!, 25, 25, 5],
      [tickets[5]!, NAMES[5]!, '缺考', 30, ''],
      [tickets[6]!, NAMES[6]!, 30, '违纪', ''],
    ];

    it('refuses an unknown ticket, a duplicate, out of range and non-numeric row by row, and writes nothing', async () => {
      const rows = goodRows();
      rows.push(['9999999999', '某人', 50, 50, ''], [tickets[0]!, NAMES[0]!, 40, 40, ''], [tickets[1]!, NAMES[1]!, 101, 'abc', '']);
      // Rows are 1-based with the header first: the added rows are 9, 10 and 11.
      const r = await importScores(await sheet(rows), false);
      expect(r.success, r.msg).toBe(true);
      expect(r.data.imported).toBe(0);
      expect(r.data.errors).toEqual([
        { row: 9, msg: '准考证号：未找到该准考证号（9999999999）' },
        { row: 10, msg: `准考证号：${tickets[0]} 与第 2 行重复` },
        { row: 11, msg: `准考证号：${tickets[1]} 与第 3 行重复` },
      ]);
      const range = await importScores(await sheet([goodRows()[0]!, [tickets[0]!, '', 101, 'abc', '']]), false);
      expect(range.data.errors).toEqual([
        { row: 2, msg: '公共基础知识：成绩 101 超出满分 100' },
        { row: 2, msg: '专业知识：成绩“abc”不是数字（缺考、违纪请填写“缺考”或“违纪”）' },
      ]);
      const header = await importScores(
        await sheet([
          ['准考证号', '公共基础知识'],
          [tickets[0]!, 50],
        ]),
        false,
      );
      expect(header.data.errors[0].msg).toContain('表头缺少列：专业知识');
      expect(await scoreCount()).toBe(0);
    });

    it('checks a 姓名 column against each ticket’s candidate, row by row (spaces and the middle dot aside)', async () => {
      const rows = goodRows();
      rows[3] = [tickets[2]!, NAMES[3]!, 37.5, 37.5, ''];
      rows[1] = [tickets[0]!, ` ${NAMES[0]!.slice(0, 1)} ${NAMES[0]!.slice(1)} `, 40, 40, ''];
      const r = await importScores(await sheet(rows), true);
      expect(r.data.errors).toEqual([
        { row: 4, msg: `姓名：“${NAMES[3]}”与准考证号 ${tickets[2]} 的考生姓名“${NAMES[2]}”不一致，请核对是否填错行` },
      ]);
      // Without the column (or with a blank name) nothing is compared.
      const unnamed = goodRows().map((row) => row.filter((_, i) => i !== 1));
      expect((await importScores(await sheet(unnamed), true)).data.errors).toEqual([]);
      expect(await scoreCount()).toBe(0);
    });

    it('refuses a subject’s line above its full marks, naming the subject', async () => {
      const r = await post(
        t,
        '/api/admin/saveScoreRules',
        {
          examId,
          subjects: subjects.map((s) => ({ subjectId: s.id, fullMarks: 100, weight: 1 })),
          subjectPassLines: [{ subjectId: subjects[1]!.id, passLine: 120 }],
          passLine: 60,
          interviewRatio: 1,
        },
        bearer(admin),
      );
      expect(r.body).toMatchObject({ success: false, msg: `${subjects[1]!.name}的合格线不能高于该科满分 100` });
    });

    it('成绩表模板: the import’s columns and a row per ticket holder; filled in, it imports; audited, admins only', async () => {
      const download = async (token = admin) => {
        const res = await t.app.inject({ method: 'GET', url: `/api/admin/getScoreTemplate?examId=${examId}`, headers: bearer(token) });
        if (!String(res.headers['content-type']).includes('spreadsheetml')) return { res, book: null };
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
        return { res, book };
      };
      const { res, book } = await download();
      expect(res.headers['content-disposition']).toContain(encodeURIComponent('成绩表模板'));
      const ws = book!.worksheets[0]!;
      expect(ws.getRow(1).values).toEqual([undefined, '准考证号', '姓名', '公共基础知识', '专业知识']);
      const listed = [...tickets].sort().map((no) => [no, NAMES[tickets.indexOf(no)]]);
      const rows: string[][] = [];
      ws.eachRow((row, n) => n > 1 && rows.push([row.getCell(1).text, row.getCell(2).text]));
      expect(rows).toEqual(listed);
      // Filled in as a clerk would: the scores typed into the downloaded workbook, which is uploaded as it is.
      const scores = new Map(
        goodRows()
          .slice(1)
          .map((r) => [r[0] as string, r.slice(2, 4)]),
      );
      ws.eachRow((row, n) => {
        if (n === 1) return;
        const [a, b] = scores.get(row.getCell(1).text)!;
        row.getCell(3).value = a!;
        row.getCell(4).value = b!;
      });
      const filled = Buffer.from(await book!.xlsx.writeBuffer());
      expect((await importScores(filled, true)).data).toMatchObject({ rows: 7, absent: 1, void: 1, errors: [] });
      // With bonus points counted the template has their column too.
      await saveRules({ passLine: 0, interviewRatio: 1, bonusEnabled: true });
      expect((await download()).book!.worksheets[0]!.getRow(1).values).toEqual([
        undefined,
        '准考证号',
        '姓名',
        '公共基础知识',
        '专业知识',
        '加分',
      ]);
      const log = await t.db.kysely.selectFrom('audit_log').select(['detail']).where('action', '=', '下载成绩表模板').execute();
      expect(log).toEqual([{ detail: '7 人' }, { detail: '7 人' }]);
      await addStaff(t, 1, 'templater', 'reviewer');
      const refused = await download(await staffToken(t, 'templater'));
      expect(refused.book).toBeNull();
      expect(refused.res.json()).toMatchObject({ success: false });
      expect(await scoreCount()).toBe(0);
    });

    it('a dry run of a good sheet reports and changes nothing', async () => {
      const r = await importScores(await sheet(goodRows()), true);
      expect(r.success, r.msg).toBe(true);
      expect(r.data).toMatchObject({ dryRun: true, rows: 7, imported: 0, absent: 1, void: 1, errors: [] });
      expect(await scoreCount()).toBe(0);
    });

    it('imports all rows in one go, audited; ranks ties alike; lists everyone tied at the cut-off; never ranks absent or void', async () => {
      await saveRules({ passLine: 60, interviewRatio: 1, bonusEnabled: false });
      const r = await importScores(await sheet(goodRows()), false);
      expect(r.data).toMatchObject({ dryRun: false, imported: 7, errors: [] });
      expect(await scoreCount()).toBe(7);
      const log = await t.db.kysely.selectFrom('audit_log').select(['action', 'detail']).where('action', 'like', '%导入成绩').execute();
      expect(log).toEqual([{ action: '导入成绩', detail: '7 人（缺考 1，违纪 1）' }]);

      const ranking = (await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.data;
      const position = ranking.positions.find((p: { ranked: number }) => p.ranked > 0);
      expect(position).toMatchObject({ headcount: 2, need: 2, ranked: 5, qualified: 4, inList: 4, cutOff: 75, short: false });
      const list = (await get(t, `/api/admin/getScoreRanking?examId=${examId}&positionId=${position.positionId}`, bearer(admin))).body.data
        .list;
      const byTicket = new Map<string, { rank: number | null; inList: boolean; total: number | null; status: string }>(
        list.map((x: { ticketNo: string }) => [x.ticketNo, x]),
      );
      expect(tickets.map((n) => byTicket.get(n)?.rank)).toEqual([1, 2, 2, 2, 5, null, null]);
      expect(tickets.map((n) => byTicket.get(n)?.inList)).toEqual([true, true, true, true, false, false, false]);
      expect(tickets.map((n) => byTicket.get(n)?.status)).toEqual(['score', 'score', 'score', 'score', 'score', 'absent', 'void']);
      // Bonus points are kept but not counted while the exam does not count them.
      expect(byTicket.get(tickets[4]!)?.total).toBe(50);
    });

    it('flags a position where fewer qualify than the ratio asks, and counts bonus points once enabled', async () => {
      await saveRules({ passLine: 55, interviewRatio: 3, bonusEnabled: true });
      const ranking = (await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.data;
      const position = ranking.positions.find((p: { ranked: number }) => p.ranked > 0);
      // 2 posts × 3 = 6 places; 55 with the bonus qualifies: 5 qualified, all enter, flagged.
      expect(position).toMatchObject({ need: 6, qualified: 5, inList: 5, short: true, cutOff: 55 });
      // Back to the rules of the journey below.
      await saveRules({ passLine: 60, interviewRatio: 1, bonusEnabled: false });
    });

    it('re-import replaces the scores whole, audited; one bad row and the old scores stay', async () => {
      const rows = goodRows();
      const bad = [...rows, [tickets[0]!, '', 'x', 1, '']];
      const refused = await importScores(await sheet(bad), false);
      expect(refused.data.imported).toBe(0);
      const before = await t.db.kysely
        .selectFrom('score_total')
        .select(['ticket_no', 'total'])
        .where('exam_id', '=', examId)
        .orderBy('ticket_no')
        .execute();
      expect(before).toHaveLength(7);
      const again = await importScores(await sheet(rows), false);
      expect(again.data.imported).toBe(7);
      const after = await t.db.kysely
        .selectFrom('score_total')
        .select(['ticket_no', 'total'])
        .where('exam_id', '=', examId)
        .orderBy('ticket_no')
        .execute();
      expect(after).toEqual(before);
      const log = await t.db.kysely.selectFrom('audit_log').select(['detail']).where('action', '=', '重新导入成绩').execute();
      expect(log).toEqual([{ detail: '7 人（缺考 1，违纪 1），替换原有 7 人' }]);
    });

    it('no score is readable before it is published or before its time, nor the public list', async () => {
      const unpublished = (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[0]!))).body;
      expect(unpublished).toMatchObject({ success: false, msg: '成绩尚未发布，请留意考试公告' });
      expect((await get(t, `/api/getInterviewList?examId=${examId}`)).body).toMatchObject({
        success: false,
        msg: '面试名单尚未公布，请留意考试公告',
      });
      const later = new Date(clock.now().getTime() + 86_400_000).toISOString();
      const pub = await post(t, '/api/admin/publishScores', { examId, queryStart: later }, bearer(admin));
      expect(pub.body.success, pub.body.msg).toBe(true);
      expect(pub.body.data.notified).toBe(7);
      const early = await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[0]!));
      expect(early.body.success).toBe(false);
      expect(early.body.msg).toMatch(/^成绩查询将于 \d{4}-\d{2}-\d{2} \d{2}:\d{2} 开放/);
      expect(early.res.headers['cache-control']).toBe('private, no-store');
      expect((await get(t, `/api/getInterviewList?examId=${examId}`)).body.success).toBe(false);
      expect((await get(t, `/api/getMyScore?examId=${examId}`)).body.errorCode).toBe(401);
    });

    it('writes one scores_published message, naming the query time, to every ticket holder; a moved time is told', async () => {
      const examName = (await t.db.kysely.selectFrom('exam').select('name').where('id', '=', examId).executeTakeFirstOrThrow()).name;
      const first = (
        await t.db.kysely.selectFrom('score_rule').select('query_start').where('exam_id', '=', examId).executeTakeFirstOrThrow()
      ).query_start!;
      const now = new Date(clock.now().getTime() - 60_000).toISOString();
      const again = await post(t, '/api/admin/publishScores', { examId, queryStart: now }, bearer(admin));
      expect(again.body.data.notified).toBe(7);
      const messages = await t.db.kysely
        .selectFrom('message')
        .select(['application_id', 'title', 'content'])
        .where('kind', '=', 'scores_published')
        .execute();
      expect(messages).toHaveLength(7);
      expect(new Set(messages.map((m) => m.title))).toEqual(new Set(['考试成绩已发布']));
      expect(new Set(messages.map((m) => m.content))).toEqual(
        new Set([`「${examName}」成绩已发布，可于 ${zonedDateTime(first)} 起登录系统查询。`]),
      );
      const moved = await t.db.kysely.selectFrom('message').select(['content']).where('kind', '=', 'schedule_changed').execute();
      expect(moved).toHaveLength(7);
      expect(moved[0]!.content).toBe(
        `您报考的「${examName}」时间安排已调整：成绩查询开始时间由 ${zonedDateTime(first)} 改为 ${zonedDateTime(now)}。请以调整后的时间为准。`,
      );
      // The same time again tells no one.
      expect((await post(t, '/api/admin/publishScores', { examId, queryStart: now }, bearer(admin))).body.data.notified).toBe(0);
    });

    it('gives each candidate their own score and rank, and only their own', async () => {
      const mine = await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[1]!));
      expect(mine.body.success, mine.body.msg).toBe(true);
      expect(mine.res.headers['cache-control']).toBe('private, no-store');
      expect(mine.body.data).toMatchObject({
        ticketNo: tickets[1],
        subjects: [
          { name: '公共基础知识', score: 35, mark: 'score' },
          { name: '专业知识', score: 40, mark: 'score' },
        ],
        total: 75,
        rank: 2,
        ranked: 5,
        passLine: 60,
        qualified: true,
        nextStage: true,
      });
      const below = (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[4]!))).body.data;
      expect(below).toMatchObject({ total: 50, rank: 5, qualified: false, nextStage: false, bonus: 5 });
      const absent = (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[5]!))).body.data;
      expect(absent).toMatchObject({
        total: null,
        rank: null,
        nextStage: false,
        subjects: [
          { mark: 'absent', score: null },
          { mark: 'score', score: 30 },
        ],
      });
      // Someone without a ticket in the exam learns nothing of anyone else's.
      const stranger = await registered(t, { name: '陌生人' });
      const none = await get(t, `/api/getMyScore?examId=${examId}`, bearer(stranger.token));
      expect(none.body.success).toBe(false);
      expect(JSON.stringify(none.body)).not.toContain(tickets[0]!);
    });

    it('the public list shows masked names, ties at the cut-off, never the absent, void or those below the line', async () => {
      const r = await get(t, `/api/getInterviewList?examId=${examId}`);
      expect(r.body.success, r.body.msg).toBe(true);
      const [position, ...others] = r.body.data.positions;
      expect(others).toEqual([]);
      // 公示时间 is the query start, when the list opened, not the moment 发布 was pressed.
      const rule = await t.db.kysely
        .selectFrom('score_rule')
        .select(['query_start'])
        .where('exam_id', '=', examId)
        .executeTakeFirstOrThrow();
      expect(r.body.data.publishedAt).toBe(rule.query_start);
      expect(position).toMatchObject({ headcount: 2, cutOff: 75, positionName: '财务会计' });
      expect(position.list).toEqual([
        { ticketNo: tickets[0], name: '王*明', total: 80, rank: 1 },
        ...[1, 2, 3]
          .map((i) => ({ ticketNo: tickets[i], name: i === 1 ? '李*' : i === 2 ? '赵*' : '钱*多', total: 75, rank: 2 }))
          .sort((a, b) => a.ticketNo!.localeCompare(b.ticketNo!)),
      ]);
      const text = JSON.stringify(r.body);
      for (const name of NAMES) expect(text).not.toContain(name);
      for (const i of [4, 5, 6]) expect(text).not.toContain(tickets[i]!);
    });

    it('exports the ranking as .xlsx and is for admins only', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportScores?examId=${examId}`, headers: bearer(admin) });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = book.worksheets[0]!;
      expect(ws.getRow(1).values).toEqual([
        undefined,
        '岗位',
        '准考证号',
        '姓名',
        '公共基础知识',
        '专业知识',
        '加分',
        '总成绩',
        '岗位排名',
        '是否合格',
        '进入面试',
      ]);
      expect(ws.rowCount).toBe(8);
      expect(ws.getRow(2).getCell(3).text).toBe(NAMES[0]);
      await addStaff(t, 1, 'scorer', 'reviewer');
      const reviewer = await staffToken(t, 'scorer');
      const refused = await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(reviewer));
      expect(refused.body.success).toBe(false);
      expect((await importScores(await sheet(goodRows()), true, reviewer)).success).toBe(false);
    });

    it('answers a candidate again from memory, and shows a re-import or a rules change at once', async () => {
      const mine = async () => (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[1]!))).body.data;
      expect(await mine()).toMatchObject({ total: 75, rank: 2 });
      // Changed behind the product's back (no write through it): the kept answer is still served.
      await t.db.kysely.updateTable('score_total').set({ total: 1 }).where('application_id', '=', apps[1]!).execute();
      expect(await mine()).toMatchObject({ total: 75, rank: 2 });
      const rows = goodRows();
      rows[2] = [tickets[1]!, NAMES[1]!, 45, 40, ''];
      expect((await importScores(await sheet(rows), false)).data.imported).toBe(7);
      expect(await mine()).toMatchObject({ total: 85, rank: 1, nextStage: true });
      await saveRules({ passLine: 90, interviewRatio: 1, bonusEnabled: false });
      expect(await mine()).toMatchObject({ total: 85, passLine: 90, qualified: false, nextStage: false });
    });

    it('成绩复核: refused outside its window and twice for a subject; a correction re-ranks, is told and audited', async () => {
      const hour = 3_600_000;
      const at = (h: number) => new Date(clock.now().getTime() + h * hour).toISOString();
      await saveRules({ passLine: 60, interviewRatio: 1, bonusEnabled: false });
      const publish = (reviewStart?: string, reviewEnd?: string) =>
        post(t, '/api/admin/publishScores', { examId, queryStart: at(-3), reviewStart, reviewEnd }, bearer(admin));
      const ask = (token: string, body: object) => post(t, '/api/requestScoreReview', { examId, ...body }, bearer(token));
      const professional = subjects.find((s) => s.name === '专业知识')!.id;

      expect((await publish()).body.success).toBe(true);
      expect((await ask(tokens[2]!, { subjectId: professional, reason: '分数偏低' })).body.msg).toBe('本次考试未开放成绩复核申请');
      expect((await publish(at(1), at(2))).body.success).toBe(true);
      expect((await ask(tokens[2]!, { subjectId: professional, reason: '分数偏低' })).body.msg).toMatch(/^成绩复核申请将于 .* 开始/);
      expect((await publish(at(-2), at(-1))).body.success).toBe(true);
      expect((await ask(tokens[2]!, { subjectId: professional, reason: '分数偏低' })).body.msg).toMatch(/^成绩复核申请已于 .* 截止/);
      const bad = await publish(at(-1), at(-2));
      expect(bad.body).toMatchObject({ success: false, msg: '复核申请截止时间应晚于开始时间' });
      expect((await publish(at(-1), at(1))).body.success).toBe(true);

      expect((await ask(tokens[2]!, { subjectId: professional, reason: '' })).body).toMatchObject({
        success: false,
        msg: '请填写复核理由',
      });
      expect((await ask(tokens[2]!, { subjectId: professional, reason: '分数偏低' })).body.success).toBe(true);
      expect((await ask(tokens[2]!, { subjectId: professional, reason: '再问一次' })).body.msg).toBe(
        '您已申请过该科目的成绩复核，请勿重复提交',
      );
      expect((await ask(tokens[3]!, { reason: '请核对总分' })).body.success).toBe(true);
      const before = (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[2]!))).body.data;
      expect(before).toMatchObject({ total: 75, rank: 3 });
      expect(before.review.requests).toMatchObject([{ subjectName: '专业知识', status: 'pending', reason: '分数偏低' }]);

      const pending = (await get(t, `/api/admin/getScoreReviewList?examId=${examId}&status=pending`, bearer(admin))).body.data as {
        id: number;
        ticketNo: string;
        name: string;
        subjectName: string;
        score: number;
      }[];
      expect(pending.map((r) => [r.ticketNo, r.name, r.subjectName, r.score]).sort()).toEqual(
        [
          [tickets[2], NAMES[2], '专业知识', 37.5],
          [tickets[3], NAMES[3], '全部科目', 75],
        ].sort(),
      );
      const mineReview = pending.find((r) => r.ticketNo === tickets[2])!;
      const whole = pending.find((r) => r.ticketNo === tickets[3])!;
      const answer = (body: object) => post(t, '/api/admin/answerScoreReview', body, bearer(admin));
      expect((await answer({ reviewId: mineReview.id, result: 'corrected', newScore: 120, answer: '漏计一题' })).body.msg).toBe(
        '更正后的分数不能高于该科满分',
      );
      expect((await answer({ reviewId: whole.id, result: 'corrected', newScore: 50, answer: '更正' })).body.msg).toBe('请选择更正的科目');
      const corrected = await answer({ reviewId: mineReview.id, result: 'corrected', newScore: 47.5, answer: '经复核漏计一题，已更正' });
      expect(corrected.body.success, corrected.body.msg).toBe(true);
      expect((await answer({ reviewId: mineReview.id, result: 'unchanged', answer: '重复' })).body.msg).toBe(
        '该复核申请已答复，请刷新后查看',
      );
      expect((await answer({ reviewId: whole.id, result: 'unchanged', answer: '经复核，总分无误' })).body.success).toBe(true);

      // 37.5 + 47.5 = 85: tied first with 李华 (85), ahead of 王小明 (80) and 钱多多 (75).
      const after = (await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[2]!))).body.data;
      expect(after).toMatchObject({ total: 85, rank: 1, subjects: [{ score: 37.5 }, { score: 47.5 }] });
      expect(after.review.requests).toMatchObject([
        { status: 'corrected', oldScore: 37.5, newScore: 47.5, answer: '经复核漏计一题，已更正' },
      ]);
      expect((await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[0]!))).body.data).toMatchObject({ total: 80, rank: 3 });
      const ranking = (await get(t, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.data;
      const position = ranking.positions.find((p: { ranked: number }) => p.ranked > 0);
      expect(position).toMatchObject({ cutOff: 85, inList: 2 });

      const messages = await t.db.kysely
        .selectFrom('message')
        .select(['application_id', 'title', 'content'])
        .where('kind', '=', 'score_review_answered')
        .orderBy('id')
        .execute();
      expect(messages).toEqual([
        { application_id: apps[2], title: '成绩复核结果', content: expect.stringContaining('专业知识成绩由 37.5 分更正为 47.5 分') },
        { application_id: apps[3], title: '成绩复核结果', content: expect.stringContaining('全部科目复核无误') },
      ]);
      const log = await t.db.kysely.selectFrom('audit_log').select(['detail']).where('action', '=', '答复成绩复核').orderBy('id').execute();
      expect(log.map((l) => l.detail)).toEqual([`${tickets[2]}：专业知识成绩由 37.5 分更正为 47.5 分`, `${tickets[3]}：全部科目复核无误`]);
      const answered = (await get(t, `/api/admin/getScoreReviewList?examId=${examId}&status=answered`, bearer(admin))).body.data;
      expect(answered).toHaveLength(2);
      expect((await get(t, `/api/admin/getScoreReviewList?examId=${examId}&status=pending`, bearer(admin))).body.data).toEqual([]);
    });

    it('exports the interview list as a PDF to post: Chinese text, masked names, the cut-off; admins only, audited', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/admin/exportInterviewListPdf?examId=${examId}`, headers: bearer(admin) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const text = await pdfText(res.rawPayload);
      expect(text).toContain('面试人员名单公示');
      expect(text).toContain('财务会计');
      expect(text).toContain('最低入围分数 85');
      // 李华 and 赵敏 tie at 85 for the 2 posts at 1:1; 王小明 (80) is out.
      for (const i of [1, 2]) expect(text).toContain(tickets[i]!);
      expect(text).toContain('李*');
      expect(text).toContain('赵*');
      expect(text).not.toContain(tickets[0]!);
      for (const name of NAMES) expect(text).not.toContain(name);
      const log = await t.db.kysely.selectFrom('audit_log').select(['detail']).where('action', '=', '导出面试名单').execute();
      expect(log).toEqual([{ detail: 'PDF，2 人' }]);
      const reviewer = await staffToken(t, 'scorer');
      const refused = await t.app.inject({
        method: 'GET',
        url: `/api/admin/exportInterviewListPdf?examId=${examId}`,
        headers: bearer(reviewer),
      });
      expect(refused.json()).toMatchObject({ success: false });
    });

    it('面试成绩表模板: 准考证号, 姓名, 面试成绩 for those in the interview list; filled in, it imports', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getInterviewScoreTemplate?examId=${examId}`,
        headers: bearer(admin),
      });
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = book.worksheets[0]!;
      expect(ws.getRow(1).values).toEqual([undefined, '准考证号', '姓名', '面试成绩']);
      const rows: string[][] = [];
      ws.eachRow((row, n) => n > 1 && rows.push([row.getCell(1).text, row.getCell(2).text]));
      // 李华 and 赵敏, tied at 85 for the 2 posts at 1:1.
      expect(rows).toEqual([1, 2].map((i) => [tickets[i]!, NAMES[i]!]).sort((a, b) => a[0]!.localeCompare(b[0]!)));
      ws.eachRow((row, n) => n > 1 && (row.getCell(3).value = 80));
      const { payload, headers } = multipart({ examId: String(examId), dryRun: 'true' }, Buffer.from(await book.xlsx.writeBuffer()));
      const check = await t.app.inject({
        method: 'POST',
        url: '/api/admin/importInterviewScores',
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      expect(check.json()).toMatchObject({ success: true, data: { rows: 2, errors: [] } });
      // A name that is not the ticket's is refused in this import too.
      ws.getRow(2).getCell(2).value = '张三';
      const wrong = multipart({ examId: String(examId), dryRun: 'true' }, Buffer.from(await book.xlsx.writeBuffer()));
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/admin/importInterviewScores',
        payload: wrong.payload,
        headers: { ...wrong.headers, ...bearer(admin) },
      });
      expect(refused.json().data.errors).toEqual([
        { row: 2, msg: expect.stringMatching(/^姓名：“张三”与准考证号 \d+ 的考生姓名“.+”不一致/) },
      ]);
    });

    it('a position cancelled at close-out has no interview places: 岗位已取消 in the console, out of every list', async () => {
      const position = (
        await t.db.kysely
          .selectFrom('position')
          .select(['id'])
          .where('exam_id', '=', examId)
          .where('name', '=', '财务会计')
          .executeTakeFirstOrThrow()
      ).id;
      const cancel = (at: string | null) =>
        t.db.kysely.updateTable('position').set({ cancelled_at: at }).where('id', '=', position).execute();
      await cancel(clock.nowIso());
      try {
        await post(
          t,
          '/api/admin/saveScoreRules',
          {
            examId,
            subjects: subjects.map((s) => ({ subjectId: s.id, fullMarks: 100, weight: 1 })),
            passLine: 59,
            interviewRatio: 1,
            bonusEnabled: false,
          },
          bearer(admin),
        );
        const ranking = (await get(t, `/api/admin/getScoreRanking?examId=${examId}&positionId=${position}`, bearer(admin))).body.data;
        expect(ranking.positions.find((p: { positionId: number }) => p.positionId === position)).toMatchObject({
          cancelled: true,
          need: 0,
          inList: 0,
          short: false,
        });
        expect(ranking.list.some((r: { inList: boolean }) => r.inList)).toBe(false);
        const list = (await get(t, `/api/getInterviewList?examId=${examId}`)).body.data;
        expect(list.positions).toEqual([]);
        expect((await get(t, `/api/getMyScore?examId=${examId}`, bearer(tokens[1]!))).body.data).toMatchObject({ nextStage: false });
        const template = await get(t, `/api/admin/getInterviewScoreTemplate?examId=${examId}`, bearer(admin));
        expect(template.body).toMatchObject({ success: false, msg: '面试名单中还没有可以参加面试的考生' });
      } finally {
        await cancel(null);
        await saveRules({ passLine: 60, interviewRatio: 1, bonusEnabled: false });
      }
    });
  });
}

/** The demo office `npm start` seeds: an exam at the scores stage, published and open to query. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`demo seed's scores on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: Omit<TestApp, 'routes' | 'logs'>;
    beforeAll(async () => {
      const database = await kind.create();
      const config = { ...loadConfig({ NODE_ENV: 'test', CAPTCHA_FIXED: TEST_CAPTCHA }, process.cwd()), database: database.config };
      const db = openDatabase(database.config);
      await migrateToLatest(db);
      await seedDemo(db, { adminPassword: TEST_ADMIN_PASSWORD, confirmationDemo: { cipher: createDataCipher(TEST_DATA_KEY) } });
      const app = await buildApp(config, { db, dataKey: TEST_DATA_KEY, heavyWorker: HEAVY_WORKER });
      await app.ready();
      t = {
        app,
        db,
        config,
        async close() {
          await app.close();
          await db.destroy();
          await database.drop();
        },
      };
    });
    afterAll(async () => {
      await t?.close();
    });

    it('林晓 queries her score and rank; the public list takes the tie at the cut-off; staff see the ranking', async () => {
      const tt = t as TestApp;
      const first = SCORE_DEMO_CANDIDATES[0]!;
      const login = await post(tt, '/api/login', {
        idno: first.first17 + idnoCheckChar(first.first17),
        password: DEMO_CANDIDATE_PASSWORD,
        ...(await captcha(tt)),
      });
      expect(login.body.success, login.body.msg).toBe(true);
      const token = login.body.data.token as string;
      const examId = ((await get(tt, '/api/getMyApplications', bearer(token))).body.data as { exam: { id: number } }[])[0]!.exam.id;
      const mine = await get(tt, `/api/getMyScore?examId=${examId}`, bearer(token));
      expect(mine.body.success, mine.body.msg).toBe(true);
      expect(mine.body.data).toMatchObject({ total: 84, rank: 1, ranked: 4, passLine: 60, qualified: true, nextStage: true });
      const list = (await get(tt, `/api/getInterviewList?examId=${examId}`)).body.data.positions as {
        positionName: string;
        cutOff: number;
        list: { name: string; rank: number }[];
      }[];
      expect(list.map((p) => [p.positionName, p.cutOff, p.list.map((c) => `${c.name}:${c.rank}`)])).toEqual([
        ['财务会计', 75, ['林*:1', expect.stringMatching(/^(高\*|谢\*):2$/), expect.stringMatching(/^(高\*|谢\*):2$/)]],
        ['行政辅助', 71, ['何*:1', '邓*:2']],
      ]);
      const admin = await adminToken(tt);
      const ranking = (await get(tt, `/api/admin/getScoreRanking?examId=${examId}`, bearer(admin))).body.data;
      expect(ranking.positions.map((p: { inList: number; short: boolean }) => [p.inList, p.short])).toEqual([
        [3, false],
        [2, false],
      ]);
    });

    it('放弃 and 递补: a listed candidate gives up, the place is filled by the next by rank, who is told; both audited', async () => {
      const tt = t as TestApp;
      const admin = await adminToken(tt);
      const examId = (await tt.db.kysely.selectFrom('score_rule').select('exam_id').executeTakeFirstOrThrow()).exam_id;
      const ticketOf = async (name: string) =>
        await tt.db.kysely
          .selectFrom('score_total as s')
          .innerJoin('application as a', 'a.id', 's.application_id')
          .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
          .select(['s.ticket_no', 's.position_id', 'a.id'])
          .where('c.name', '=', name)
          .executeTakeFirstOrThrow();
      const lin = await ticketOf('林晓');
      const gao = await ticketOf('高远');
      const feng = await ticketOf('冯涛');
      const outsider = await post(tt, '/api/admin/recordGiveUp', { examId, ticketNo: feng.ticket_no }, bearer(admin));
      expect(outsider.body).toMatchObject({ success: false, msg: '该考生不在面试名单中，无需记录放弃' });
      expect(
        (await post(tt, '/api/admin/recordGiveUp', { examId, ticketNo: lin.ticket_no, reason: '已被其他单位录用' }, bearer(admin))).body
          .success,
      ).toBe(true);
      // 高远 and 谢文 (tied) still fill the 2 places: nothing to fill.
      const full = await post(tt, '/api/admin/fillVacancy', { examId, positionId: lin.position_id }, bearer(admin));
      expect(full.body).toMatchObject({ success: false, msg: '该岗位面试名额已满，无需递补' });
      expect((await post(tt, '/api/admin/recordGiveUp', { examId, ticketNo: gao.ticket_no }, bearer(admin))).body.success).toBe(true);
      const filled = await post(tt, '/api/admin/fillVacancy', { examId, positionId: lin.position_id }, bearer(admin));
      expect(filled.body.success, filled.body.msg).toBe(true);
      expect(filled.body.data.added).toEqual([feng.ticket_no]);
      const list = (await get(tt, `/api/getInterviewList?examId=${examId}`)).body.data.positions[0].list as { ticketNo: string }[];
      expect(list.map((c) => c.ticketNo).sort()).toEqual([feng.ticket_no, (await ticketOf('谢文')).ticket_no].sort());
      const told = await tt.db.kysely
        .selectFrom('message')
        .select(['content'])
        .where('application_id', '=', feng.id)
        .where('kind', '=', 'next_stage_result')
        .execute();
      expect(told).toHaveLength(1);
      expect(told[0]!.content).toContain('递补进入「财务会计」岗位面试名单');
      const row = (await get(tt, `/api/admin/getScoreRanking?examId=${examId}&positionId=${lin.position_id}`, bearer(admin))).body.data;
      expect(row.positions[0]).toMatchObject({ gaveUp: 2, vacancies: 0, inList: 2 });
      expect(row.list.find((r: { ticketNo: string }) => r.ticketNo === lin.ticket_no)).toMatchObject({
        gaveUp: true,
        inList: false,
        rank: 1,
      });
      const log = await tt.db.kysely
        .selectFrom('audit_log')
        .select(['action'])
        .where('action', 'in', ['记录放弃面试', '面试递补'])
        .execute();
      expect(log.map((l) => l.action).sort()).toEqual(['记录放弃面试', '记录放弃面试', '面试递补'].sort());
      // 林晓 no longer goes on; 冯涛 does.
      const linLogin = await post(tt, '/api/login', {
        idno: SCORE_DEMO_CANDIDATES[0]!.first17 + idnoCheckChar(SCORE_DEMO_CANDIDATES[0]!.first17),
        password: DEMO_CANDIDATE_PASSWORD,
        ...(await captcha(tt)),
      });
      const linScore = (await get(tt, `/api/getMyScore?examId=${examId}`, bearer(linLogin.body.data.token))).body.data;
      expect(linScore).toMatchObject({ rank: 1, nextStage: false });
    });
  });
}
