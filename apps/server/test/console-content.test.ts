import { ErrorCode, POSITION_SHEET_COLUMNS } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStaff, auditorToken, STAFF_PASSWORD } from './helpers/actors';
import { createTestApp, insertOffice, TEST_ADMIN_PASSWORD, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** An exam open for registration now, its review and confirmation after. */
function examInput(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    registrationStart: at(-1),
    registrationEnd: at(10),
    reviewStart: at(-1),
    reviewEnd: at(12),
    confirmationStart: at(13),
    confirmationEnd: at(15),
    config: { fields: ['education', 'major', 'contactPhone'], required: ['education', 'contactPhone'] },
    published: false,
    ...extra,
  };
}

function positionInput(examId: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    examId,
    code,
    name: `岗位${code}`,
    unit: '市测试中心',
    headcount: 2,
    description: '',
    requirements: { minEducation: '本科', majors: [], maxAge: 35, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
    ...extra,
  };
}

async function workbook(rows: (string | number)[][], header: readonly string[] = POSITION_SHEET_COLUMNS): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('岗位表');
  sheet.addRow([...header]);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

function multipart(name: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = '----zkboundary7MA4YWxkTrZu0gW';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `console content management on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let admin: string;
      let reviewer: string;
      let foreignAdmin: string;

      async function staffLogin(username: string, password: string, query = '') {
        const { body } = await post(t, `/api/admin/login${query}`, { username, password, ...(await captcha(t, query)) });
        if (!body.success) throw new Error(`staff login failed: ${body.msg}`);
        return body.data.token as string;
      }
      const upload = (url: string, token: string, name: string, content: Buffer, type?: string) => {
        const { payload, headers } = multipart(name, content, type);
        return t.app.inject({ method: 'POST', url, payload, headers: { ...headers, ...bearer(token) } });
      };

      beforeAll(async () => {
        t = await createTestApp(kind);
        admin = await staffLogin('admin', TEST_ADMIN_PASSWORD);
        const created = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'reviewer9', name: '审核员九', role: 'reviewer', units: [], password: 'reviewer password 9' },
          bearer(admin),
        );
        expect(created.body.success).toBe(true);
        reviewer = await staffLogin('reviewer9', 'reviewer password 9');
        // The other office's first admin cannot be made through a console that has no admin yet.
        await addStaff(t, await insertOffice(t, 'elsewhere'), 'admin', 'admin');
        foreignAdmin = await staffLogin('admin', STAFF_PASSWORD, '?officeCode=elsewhere');
      });
      afterAll(async () => {
        await t?.close();
      });

      it('settings, menu and agreement change the candidate site at once; rich text is sanitized', async () => {
        const before = (await get(t, '/api/admin/getOfficeSettings', bearer(reviewer))).body.data;
        expect(before.settings.webname).toBeTruthy();
        const settings = { ...before.settings, webname: '测试市人事考试网', announcement: '报名将于月底截止' };
        expect((await post(t, '/api/admin/updateOfficeSettings', settings, bearer(admin))).body.success).toBe(true);
        const site = (await get(t, '/api/getWSystem')).body.data;
        expect(site).toMatchObject({ webname: '测试市人事考试网', announcement: '报名将于月底截止' });

        const empty = await post(t, '/api/admin/updateOfficeSettings', { ...settings, webname: '  ' }, bearer(admin));
        expect(empty.body).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '请输入网站名称' });
        expect((await get(t, '/api/getWSystem')).body.data.webname).toBe('测试市人事考试网');

        const menu = [
          { key: 'home', title: '首页', path: '/exam-list', icon: 'home' },
          { key: 'notices', title: '通知', path: '/notice-list', icon: 'notices' },
          { key: 'me', title: '我的', path: '/personal-center', icon: 'me' },
        ];
        expect((await post(t, '/api/admin/updateMenu', { menu }, bearer(admin))).body.success).toBe(true);
        expect((await get(t, '/api/getMenu')).body.data).toEqual(menu);
        const badMenu = await post(t, '/api/admin/updateMenu', { menu: [{ ...menu[0], path: 'https://evil.example' }] }, bearer(admin));
        expect(badMenu.body).toMatchObject({ success: false, msg: '第 1 个菜单项：请选择菜单打开的页面' });

        const agreement = {
          title: '注册协议（2027 版）',
          content: '<p>请如实填写。</p><script>alert(1)</script><img src=x onerror=alert(2)>',
        };
        expect((await post(t, '/api/admin/updateAgreement', agreement, bearer(admin))).body.success).toBe(true);
        const treaty = (await get(t, '/api/getTreatyDesc')).body.data;
        expect(treaty.title).toBe('注册协议（2027 版）');
        expect(treaty.content).toContain('<p>请如实填写。</p>');
        expect(treaty.content).not.toMatch(/script|onerror/i);

        // Reviewers read, admins write.
        expect((await post(t, '/api/admin/updateOfficeSettings', settings, bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);
        expect((await post(t, '/api/admin/updateMenu', { menu }, bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);
      });

      it('creates a draft exam, publishes it, checks its windows and config, keeps other offices out', async () => {
        const draft = await post(t, '/api/admin/saveExam', examInput('2027 年测试考试'), bearer(admin));
        expect(draft.body.success).toBe(true);
        const examId = draft.body.data.id as number;
        const publicList = async () => (await get(t, '/api/getExamList')).body.data.map((e: { id: number }) => e.id);
        expect(await publicList()).not.toContain(examId);
        const consoleList = (await get(t, '/api/admin/getExamList', bearer(reviewer))).body.data;
        expect(consoleList.find((e: { id: number }) => e.id === examId)).toMatchObject({
          published: false,
          phase: 'registering',
          positions: 0,
        });

        expect((await post(t, '/api/admin/setExamPublished', { examId, published: true }, bearer(admin))).body.success).toBe(true);
        expect(await publicList()).toContain(examId);
        const exam = (await get(t, '/api/getExamList')).body.data.find((e: { id: number }) => e.id === examId);
        expect(exam.config).toEqual({ fields: ['education', 'major', 'contactPhone'], required: ['education', 'contactPhone'] });

        const backwards = await post(t, '/api/admin/saveExam', examInput('倒序', { registrationEnd: at(-2) }), bearer(admin));
        expect(backwards.body).toMatchObject({ success: false, msg: '报名截止时间应晚于报名开始时间' });
        const notAsked = await post(
          t,
          '/api/admin/saveExam',
          examInput('字段', { config: { fields: ['major'], required: ['education'] } }),
          bearer(admin),
        );
        expect(notAsked.body).toMatchObject({ success: false, msg: '必填字段必须在报名表中' });
        const unknownField = await post(
          t,
          '/api/admin/saveExam',
          examInput('字段', { config: { fields: ['salary'], required: [] } }),
          bearer(admin),
        );
        expect(unknownField.body).toMatchObject({ success: false, msg: '报名表字段有误' });

        // Another office's admin can neither see nor change it.
        expect((await get(t, '/api/admin/getExamList?officeCode=elsewhere', bearer(foreignAdmin))).body.data).toEqual([]);
        const foreign = await post(
          t,
          '/api/admin/setExamPublished?officeCode=elsewhere',
          { examId, published: false },
          bearer(foreignAdmin),
        );
        expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
        const foreignEdit = await post(
          t,
          '/api/admin/saveExam?officeCode=elsewhere',
          { ...examInput('劫持'), id: examId },
          bearer(foreignAdmin),
        );
        expect(foreignEdit.body.errorCode).toBe(ErrorCode.NotFound);
        expect(await publicList()).toContain(examId);

        // The exam's texts: one of each type, sanitized, shown by getDoc.
        const pledge = { examId, type: 'pledge', title: '诚信承诺书', content: '<p>本人承诺所填信息真实。</p><iframe src="//x"></iframe>' };
        expect((await post(t, '/api/admin/saveExamDocument', pledge, bearer(admin))).body.success).toBe(true);
        expect((await post(t, '/api/admin/saveExamDocument', { ...pledge, title: '诚信承诺书（修订）' }, bearer(admin))).body.success).toBe(
          true,
        );
        const docs = (await get(t, `/api/getDoc?examId=${examId}&type=pledge`)).body.data;
        expect(docs).toHaveLength(1);
        expect(docs[0].title).toBe('诚信承诺书（修订）');
        expect(docs[0].content).not.toContain('iframe');
        expect((await post(t, '/api/admin/saveExamDocument', pledge, bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);

        // Closing takes it off the site again.
        expect((await post(t, '/api/admin/setExamPublished', { examId, published: false }, bearer(admin))).body.success).toBe(true);
        expect(await publicList()).not.toContain(examId);
      });

      it('manages positions: create, unique code, delete only while nobody applied', async () => {
        const examId = (await post(t, '/api/admin/saveExam', examInput('岗位测试考试', { published: true }), bearer(admin))).body.data.id;
        const a = await post(t, '/api/admin/savePosition', positionInput(examId, 'P01'), bearer(admin));
        const b = await post(t, '/api/admin/savePosition', positionInput(examId, 'P02', { headcount: 1 }), bearer(admin));
        expect(a.body.success && b.body.success).toBe(true);
        const dup = await post(t, '/api/admin/savePosition', positionInput(examId, 'P01'), bearer(admin));
        expect(dup.body).toMatchObject({ success: false, msg: '岗位代码 P01 已存在，请换一个' });
        const zero = await post(t, '/api/admin/savePosition', positionInput(examId, 'P03', { headcount: 0 }), bearer(admin));
        expect(zero.body).toMatchObject({ success: false, msg: '招聘人数至少为 1' });

        const listed = (await get(t, `/api/getPositionList?examId=${examId}`)).body.data.list;
        expect(listed.map((p: { code: string }) => p.code)).toEqual(['P01', 'P02']);

        // A candidate chooses P01 (a draft is enough to keep it).
        const c = await registered(t);
        await post(t, '/api/saveApplication', { examId, positionId: a.body.data.id, form: {} }, bearer(c.token));
        const refused = await post(t, '/api/admin/deletePosition', { id: a.body.data.id }, bearer(admin));
        expect(refused.body.success).toBe(false);
        expect(refused.body.msg).toContain('已有考生选择该岗位，不能删除');
        expect((await post(t, '/api/admin/deletePosition', { id: b.body.data.id }, bearer(reviewer))).body.errorCode).toBe(
          ErrorCode.Forbidden,
        );
        expect((await post(t, '/api/admin/deletePosition', { id: b.body.data.id }, bearer(admin))).body.success).toBe(true);
        const after = (await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(reviewer))).body.data;
        expect(after.map((p: { code: string }) => p.code)).toEqual(['P01']);
        const foreign = await post(t, '/api/admin/deletePosition?officeCode=elsewhere', { id: a.body.data.id }, bearer(foreignAdmin));
        expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
      });

      it('imports positions from Excel all or nothing, reporting each wrong row, and exports them back', async () => {
        const examId = (await post(t, '/api/admin/saveExam', examInput('导入测试考试'), bearer(admin))).body.data.id;
        const url = `/api/admin/importPositions?examId=${examId}`;
        const good = ['A01', '综合管理', '市档案馆', 2, '', '本科', '汉语言文学、档案学', 35, '不限', '不限', 0, ''];
        const bad = await workbook([
          good,
          ['A02', '技术', '市档案馆', 0, '', '初中', '', '', '', '', '', ''],
          ['A01', '重复', '市档案馆', 1, '', '', '', '', '', '', '', ''],
          ['', '', '', '', '', '', '', '', '', '', '', ''],
          ['A04', '', '市档案馆', 1, '', '', '', 'abc', '男女', '', '', ''],
        ]);
        const res = await upload(url, admin, 'positions.xlsx', bad);
        const result = res.json().data;
        expect(result.created).toBe(0);
        expect(result.errors).toEqual(
          expect.arrayContaining([
            { row: 3, msg: '招聘人数：招聘人数至少为 1' },
            { row: 3, msg: expect.stringMatching(/^最低学历：无法识别「初中」，请写为 .*本科及以上.*不限$/) },
            { row: 6, msg: '性别要求应为 不限、男 或 女' },
            { row: 4, msg: '岗位代码：A01 与第 2 行重复' },
            { row: 6, msg: '岗位名称：请输入岗位名称' },
            { row: 6, msg: expect.stringMatching(/^最高年龄：/) },
          ]),
        );
        expect((await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data).toEqual([]);

        const fixed = await workbook([
          good,
          ['A02', '技术', '市档案馆', 1, '运维', '大专', '不限', '不限', '男', '中共党员', 2, '需值夜班'],
        ]);
        const ok = (await upload(url, admin, 'positions.xlsx', fixed)).json().data;
        expect(ok).toEqual({ created: 2, updated: 0, errors: [] });
        const again = (await upload(url, admin, 'positions.xlsx', fixed)).json().data;
        expect(again).toEqual({ created: 0, updated: 2, errors: [] });
        const positions = (await get(t, `/api/admin/getPositionList?examId=${examId}`, bearer(admin))).body.data;
        expect(positions[1]).toMatchObject({
          code: 'A02',
          headcount: 1,
          requirements: {
            minEducation: '大专',
            majors: [],
            maxAge: null,
            sex: '男',
            politicalStatus: '中共党员',
            workYears: 2,
            note: '需值夜班',
          },
        });
        expect(positions[0].requirements.majors).toEqual(['汉语言文学', '档案学']);

        const wrongHeader = (await upload(url, admin, 'positions.xlsx', await workbook([good], ['代码', '名称']))).json().data;
        expect(wrongHeader.errors[0].msg).toBe(
          '前 10 行中没有找到表头：表头应有 岗位代码、岗位名称、招聘单位、招聘人数 等列（可点击「下载模板」获取岗位表模板）',
        );
        // A zip bomb: the archive declares an entry that would unpack to 2 GB; refused before unpacking.
        const bomb = Buffer.from(fixed);
        const central = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
        bomb.writeUInt32LE(0x7fffffff, central + 24);
        const bombed = (await upload(url, admin, 'positions.xlsx', bomb)).json().data;
        expect(bombed.errors[0].msg).toBe('岗位表解压后过大，请只保留岗位表一个工作表后重新导入');
        const notExcel = (await upload(url, admin, 'positions.xlsx', Buffer.from('code,name\nA01,x'))).json().data;
        expect(notExcel.errors[0].msg).toBe('无法读取该文件，请上传 Excel（.xlsx）格式的岗位表');
        expect((await upload(url, reviewer, 'positions.xlsx', fixed)).json().errorCode).toBe(ErrorCode.Forbidden);

        const exported = await t.app.inject({
          method: 'GET',
          url: `/api/admin/exportPositions?examId=${examId}`,
          headers: bearer(reviewer),
        });
        expect(exported.headers['content-type']).toContain('spreadsheetml');
        const book = new ExcelJS.Workbook();
        await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
        const sheet = book.worksheets[0]!;
        expect(sheet.getRow(1).values).toEqual([undefined, ...POSITION_SHEET_COLUMNS]);
        // In the console's own wording, which the import reads back.
        expect(sheet.getRow(3).values).toEqual([
          undefined,
          'A02',
          '技术',
          '市档案馆',
          1,
          '运维',
          '大专及以上',
          '不限',
          '不限',
          '男',
          '中共党员（含预备党员）',
          2,
          '需值夜班',
        ]);
        expect(sheet.getRow(3).getCell(1).text).toBe('A02');
        // The export is a template: importing it back changes nothing but the counts.
        const roundTrip = (await upload(url, admin, 'back.xlsx', Buffer.from(exported.rawPayload))).json().data;
        expect(roundTrip).toEqual({ created: 0, updated: 2, errors: [] });
      });

      it('writes notices as drafts, publishes and withdraws them, with checked attachments', async () => {
        const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(200, 32), Buffer.from('\n%%EOF')]);
        const up = await upload('/api/admin/uploadAttachment', admin, '岗位表说明.pdf', pdf, 'application/pdf');
        const attachment = up.json().data;
        expect(attachment.name).toBe('岗位表说明.pdf');
        expect(attachment.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(attachment.url).toBe(`/api/getAttachment?id=${attachment.id}&officeCode=demo`);
        const fake = await upload(
          '/api/admin/uploadAttachment',
          admin,
          'page.pdf',
          Buffer.from('<html><script>alert(1)</script>'),
          'application/pdf',
        );
        expect(fake.json()).toMatchObject({ success: false, msg: expect.stringContaining('附件格式不支持') });
        const exe = await upload('/api/admin/uploadAttachment', admin, 'setup.exe', Buffer.from('MZ....'), 'application/octet-stream');
        expect(exe.json().success).toBe(false);
        expect((await upload('/api/admin/uploadAttachment', reviewer, 'a.pdf', pdf)).json().errorCode).toBe(ErrorCode.Forbidden);

        // Nothing published links to it yet: staff can open it, nobody else.
        expect((await get(t, attachment.url)).body.errorCode).toBe(ErrorCode.NotFound);
        const staffCopy = await t.app.inject({
          method: 'GET',
          url: `/api/admin/getAttachment?id=${attachment.id}`,
          headers: bearer(reviewer),
        });
        expect(staffCopy.headers['content-type']).toBe('application/pdf');
        expect(staffCopy.headers['cache-control']).toBe('no-store');
        expect(staffCopy.rawPayload.equals(pdf)).toBe(true);

        const input = {
          title: '关于资格复审的通知',
          summary: '',
          content: '<h3>复审安排</h3><p>请携带原件。</p><a href="javascript:alert(1)">点我</a>',
          attachments: [attachment],
          pinned: true,
          published: false,
        };
        const saved = await post(t, '/api/admin/saveNotice', input, bearer(admin));
        expect(saved.body.success).toBe(true);
        const noticeId = saved.body.data.id as number;
        const publicIds = async () => (await get(t, '/api/getNoticeList?pageSize=50')).body.data.list.map((n: { id: number }) => n.id);
        expect(await publicIds()).not.toContain(noticeId);
        expect((await get(t, `/api/getNoticeDetail?id=${noticeId}`)).body.success).toBe(false);

        expect((await post(t, '/api/admin/setNoticePublished', { id: noticeId, published: true }, bearer(admin))).body.success).toBe(true);
        expect((await publicIds())[0]).toBe(noticeId);
        const shown = (await get(t, `/api/getNoticeDetail?id=${noticeId}`)).body.data;
        expect(shown.summary).toBe('复审安排请携带原件。点我');
        expect(shown.content).not.toContain('javascript:');
        expect(shown.attachments).toEqual([{ name: attachment.name, url: attachment.url }]);
        const download = await t.app.inject({ method: 'GET', url: attachment.url });
        expect(download.statusCode).toBe(200);
        expect(download.headers['content-type']).toBe('application/pdf');
        expect(String(download.headers['content-disposition'])).toContain("filename*=UTF-8''");
        expect(download.rawPayload.equals(pdf)).toBe(true);
        expect((await get(t, `/api/getAttachment?id=${attachment.id}&officeCode=elsewhere`)).body.errorCode).toBe(ErrorCode.NotFound);

        const badLink = await post(
          t,
          '/api/admin/saveNotice',
          { ...input, attachments: [{ name: 'x', url: 'https://evil.example/x' }] },
          bearer(admin),
        );
        expect(badLink.body).toMatchObject({ success: false, msg: '第 1 个附件：附件地址有误' });
        expect((await post(t, '/api/admin/saveNotice', input, bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);

        expect((await post(t, '/api/admin/setNoticePublished', { id: noticeId, published: false }, bearer(admin))).body.success).toBe(true);
        expect(await publicIds()).not.toContain(noticeId);
        const drafts = (await get(t, '/api/admin/getNoticeList?pageSize=50', bearer(reviewer))).body.data.list;
        expect(drafts.find((n: { id: number }) => n.id === noticeId)).toMatchObject({ published: false, pinned: true });
        expect((await post(t, '/api/admin/deleteNotice', { id: noticeId }, bearer(admin))).body.success).toBe(true);
        expect((await get(t, `/api/admin/getNoticeDetail?id=${noticeId}`, bearer(admin))).body.errorCode).toBe(ErrorCode.NotFound);
      });

      it('lets admins manage staff: roles, units, password reset and disabling end sessions', async () => {
        const list = (await get(t, '/api/admin/getStaffList', bearer(admin))).body.data;
        expect(list.map((s: { username: string }) => s.username)).toEqual(expect.arrayContaining(['admin', 'reviewer9']));
        expect(JSON.stringify(list)).not.toContain('password');
        expect((await get(t, '/api/admin/getStaffList', bearer(reviewer))).body.errorCode).toBe(ErrorCode.Forbidden);

        const noPassword = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'rev10', name: '十号', role: 'reviewer', units: [] },
          bearer(admin),
        );
        expect(noPassword.body).toMatchObject({ success: false, msg: '请为新人员设置初始密码' });
        const weak = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'rev10', name: '十号', role: 'reviewer', password: '12345678' },
          bearer(admin),
        );
        expect(weak.body.success).toBe(false);
        const made = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'rev10', name: '十号', role: 'reviewer', units: ['市档案馆'], password: 'Ten-Reviewer-Pass' },
          bearer(admin),
        );
        expect(made.body.success).toBe(true);
        const dup = await post(
          t,
          '/api/admin/saveStaff',
          { username: 'rev10', name: '重名', role: 'reviewer', password: 'Another-Good-Pass' },
          bearer(admin),
        );
        expect(dup.body).toMatchObject({ success: false, msg: '用户名 rev10 已被使用' });

        const token = await staffLogin('rev10', 'Ten-Reviewer-Pass');
        expect((await get(t, '/api/admin/getProfile', bearer(token))).body.data.units).toEqual(['市档案馆']);
        // A password reset ends the old sessions; the new password works.
        const id = made.body.data.id as number;
        await post(
          t,
          '/api/admin/saveStaff',
          { id, username: 'rev10', name: '十号', role: 'reviewer', units: ['市档案馆'], password: 'New-Reviewer-Pass' },
          bearer(admin),
        );
        expect((await get(t, '/api/admin/getProfile', bearer(token))).body.errorCode).toBe(401);
        const token2 = await staffLogin('rev10', 'New-Reviewer-Pass');
        expect((await post(t, '/api/admin/setStaffDisabled', { id, disabled: true }, bearer(admin))).body.success).toBe(true);
        expect((await get(t, '/api/admin/getProfile', bearer(token2))).body.errorCode).toBe(401);
        const { body } = await post(t, '/api/admin/login', { username: 'rev10', password: 'New-Reviewer-Pass', ...(await captcha(t)) });
        expect(body.success).toBe(false);

        const adminId = list.find((s: { username: string }) => s.username === 'admin').id;
        const self = await post(t, '/api/admin/setStaffDisabled', { id: adminId, disabled: true }, bearer(admin));
        expect(self.body).toMatchObject({ success: false, msg: '不能停用自己的账号' });
        const demote = await post(
          t,
          '/api/admin/saveStaff',
          { id: adminId, username: 'admin', name: '管理员', role: 'reviewer' },
          bearer(admin),
        );
        // Nobody changes their own role (decision 031): so an admin can never demote the office's last admin.
        expect(demote.body).toMatchObject({ success: false, errorCode: ErrorCode.Forbidden, msg: '不能修改自己的角色' });
        const foreign = await post(
          t,
          '/api/admin/setStaffDisabled?officeCode=elsewhere',
          { id: adminId, disabled: true },
          bearer(foreignAdmin),
        );
        expect(foreign.body.errorCode).toBe(ErrorCode.NotFound);
      });

      it('keeps anonymous callers, candidates and other offices out of every content call', async () => {
        const candidate = await registered(t);
        const calls: [string, 'GET' | 'POST', unknown?][] = [
          ['/api/admin/getOfficeSettings', 'GET'],
          ['/api/admin/updateOfficeSettings', 'POST', { webname: 'x' }],
          ['/api/admin/updateMenu', 'POST', { menu: [] }],
          ['/api/admin/updateAgreement', 'POST', { title: 'x', content: 'y' }],
          ['/api/admin/getExamList', 'GET'],
          ['/api/admin/saveExam', 'POST', examInput('x')],
          ['/api/admin/setExamPublished', 'POST', { examId: 1, published: true }],
          ['/api/admin/getExamDocuments?examId=1', 'GET'],
          ['/api/admin/saveExamDocument', 'POST', { examId: 1, type: 'pledge', title: 'x', content: 'y' }],
          ['/api/admin/getPositionList?examId=1', 'GET'],
          ['/api/admin/savePosition', 'POST', positionInput(1, 'Z1')],
          ['/api/admin/deletePosition', 'POST', { id: 1 }],
          ['/api/admin/exportPositions?examId=1', 'GET'],
          ['/api/admin/getPositionTemplate?examId=1', 'GET'],
          ['/api/admin/getNoticeList', 'GET'],
          ['/api/admin/getNoticeDetail?id=1', 'GET'],
          ['/api/admin/saveNotice', 'POST', { title: 'x', content: 'y' }],
          ['/api/admin/setNoticePublished', 'POST', { id: 1, published: false }],
          ['/api/admin/deleteNotice', 'POST', { id: 1 }],
          ['/api/admin/getStaffList', 'GET'],
          ['/api/admin/saveStaff', 'POST', { username: 'zzz', name: 'z', role: 'admin', password: 'long enough pass' }],
          ['/api/admin/setStaffDisabled', 'POST', { id: 1, disabled: true }],
        ];
        for (const [url, method, body] of calls) {
          for (const [who, token] of [
            ['anonymous', undefined],
            ['candidate', candidate.token],
            ['other office', foreignAdmin],
          ] as const) {
            const res = await t.app.inject({
              method,
              url,
              headers: token ? bearer(token) : {},
              ...(body ? { payload: body } : {}),
            });
            expect(res.json().errorCode, `${who} ${method} ${url}`).toBe(401);
          }
        }
      });

      it('records every content change in the audit log', async () => {
        const log = (await get(t, '/api/admin/getAuditLog?pageSize=100', bearer(await auditorToken(t)))).body.data.list as {
          action: string;
          staffName: string;
        }[];
        const actions = new Set(log.map((e) => e.action));
        for (const a of [
          '修改系统设置',
          '修改菜单',
          '修改注册协议',
          '新建考试',
          '发布考试',
          '撤回考试',
          '修改考试文件',
          '新建岗位',
          '删除岗位',
          '导入岗位',
          '导出岗位',
          '上传附件',
          '新建公告',
          '发布公告',
          '撤回公告',
          '删除公告',
          '新建人员',
          '修改人员',
          '停用人员',
        ]) {
          expect(actions, a).toContain(a);
        }
        // Each entry names what it touched as it is now, or says it was deleted.
        const entries = log as unknown as { action: string; target: string; targetLabel: string }[];
        const labelOf = (action: string) => entries.find((e) => e.action === action)!.targetLabel;
        expect(labelOf('新建考试')).toMatch(/^考试「.+」$/);
        expect(labelOf('新建岗位')).toMatch(/^岗位 \S+ .+|^岗位 #\d+（已删除）$/);
        expect(labelOf('删除公告')).toMatch(/^公告 #\d+（已删除）$/);
        expect(labelOf('新建人员')).toMatch(/^人员 \S+（.+）$/);
        expect(labelOf('修改系统设置')).toBe('本机构设置');
      });
    },
  );
}
