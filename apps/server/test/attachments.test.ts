import { ErrorCode, NOT_FOUND_TEXT } from '@zhikaoyun/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import { addStaff, adminToken, draftExam, STAFF_PASSWORD, staffToken } from './helpers/actors';
import { createTestApp, insertOffice, type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * Notice attachments are served to anyone only while something published links to them (a
 * published notice, a document of a published exam, the agreement), under random ids, never
 * kept by shared caches; staff open any of their office's; files nothing links to are deleted.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const pdf = (text: string) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(text), Buffer.from('\n%%EOF')]);

function multipart(name: string, content: Buffer) {
  const boundary = '----zkattach';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

interface Uploaded {
  id: string;
  name: string;
  url: string;
}

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`attachments on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let reviewer: string;

    const upload = async (name: string, content: Buffer): Promise<Uploaded> => {
      const { payload, headers } = multipart(name, content);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/uploadAttachment',
        payload,
        headers: { ...headers, ...bearer(admin) },
      });
      const body = res.json<{ success: boolean; data: Uploaded; msg?: string }>();
      if (!body.success) throw new Error(`upload failed: ${body.msg}`);
      return body.data;
    };
    const anonymous = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
    const asStaff = (id: string, token = reviewer) =>
      t.app.inject({ method: 'GET', url: `/api/admin/getAttachment?id=${id}`, headers: bearer(token) });
    const rowOf = (publicId: string) =>
      t.db.kysely.selectFrom('attachment').select(['id', 'office_id']).where('public_id', '=', publicId).executeTakeFirst();
    const saveNotice = async (input: Record<string, unknown>) => {
      const { body } = await post(
        t,
        '/api/admin/saveNotice',
        { title: '附件测试', summary: '', content: '<p>正文</p>', attachments: [], pinned: false, published: false, ...input },
        bearer(admin),
      );
      if (!body.success) throw new Error(`saveNotice failed: ${body.msg}`);
      return body.data.id as number;
    };

    beforeAll(async () => {
      t = await createTestApp(kind, { RATE_LIMITS: 'off' });
      admin = await adminToken(t);
      const officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
      await addStaff(t, officeId, 'attach-reviewer', 'reviewer');
      reviewer = await staffToken(t, 'attach-reviewer', STAFF_PASSWORD);
    });
    afterAll(async () => t?.close());
    afterEach(() => testClock.reset());

    it('serves a draft notice’s file to staff only, then to anyone while the notice is published', async () => {
      const file = await upload('拟录用人员名单.pdf', pdf('DRAFT-ONLY 110105199501011028'));
      expect(file.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(file.url).toBe(`/api/getAttachment?id=${file.id}&officeCode=demo`);
      const noticeId = await saveNotice({ attachments: [{ name: file.name, url: file.url }] });

      // The finding: a draft's file by its id, anonymously.
      const draft = await anonymous(file.url);
      expect(draft.json()).toMatchObject({ success: false, errorCode: ErrorCode.NotFound, msg: NOT_FOUND_TEXT.attachment });
      expect(draft.body).not.toContain('DRAFT-ONLY');
      // Nor by counting row numbers (links written before random ids).
      const row = await rowOf(file.id);
      for (let id = 1; id <= (row?.id ?? 0) + 2; id++) {
        expect((await anonymous(`/api/getAttachment?id=${id}&officeCode=demo`)).body, `id ${id}`).not.toContain('DRAFT-ONLY');
      }
      const staff = await asStaff(file.id);
      expect(staff.statusCode).toBe(200);
      expect(staff.headers['cache-control']).toBe('no-store');
      expect(staff.body).toContain('DRAFT-ONLY');
      expect((await anonymous(`/api/admin/getAttachment?id=${file.id}`)).json().errorCode).toBe(401);

      expect((await post(t, '/api/admin/setNoticePublished', { id: noticeId, published: true }, bearer(admin))).body.success).toBe(true);
      const shown = await anonymous(file.url);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain('DRAFT-ONLY');
      // Only this browser keeps it, and it asks each time: no shared cache serves it after a withdrawal.
      expect(shown.headers['cache-control']).toBe('private, no-cache');
      const etag = shown.headers.etag as string;
      expect(etag).toBe(`"${file.id}"`);
      const revalidated = await anonymous(file.url, { 'if-none-match': etag });
      expect(revalidated.statusCode).toBe(304);
      // An old link by row number opens it too, now that it is public anyway.
      expect((await anonymous(`/api/getAttachment?id=${row?.id}&officeCode=demo`)).body).toContain('DRAFT-ONLY');

      expect((await post(t, '/api/admin/setNoticePublished', { id: noticeId, published: false }, bearer(admin))).body.success).toBe(true);
      const withdrawn = await anonymous(file.url, { 'if-none-match': etag });
      expect(withdrawn.statusCode).toBe(200);
      expect(withdrawn.json().errorCode).toBe(ErrorCode.NotFound);
      expect((await asStaff(file.id)).statusCode).toBe(200);
    });

    it('deletes a file with the notice, or when it is taken off it, unless something else still links to it', async () => {
      const a = await upload('a.pdf', pdf('file a'));
      const b = await upload('b.pdf', pdf('file b'));
      const shared = await upload('shared.pdf', pdf('file shared'));
      const first = await saveNotice({
        attachments: [a, shared].map(({ name, url }) => ({ name, url })),
        content: `<p>见 <a href="${b.url}">附件 b</a></p>`,
        published: true,
      });
      const second = await saveNotice({ attachments: [{ name: shared.name, url: shared.url }], published: true });
      for (const f of [a, b, shared]) expect((await anonymous(f.url)).statusCode, f.name).toBe(200);
      expect((await anonymous(b.url)).body).toContain('file b');

      // a taken off the list, b's link taken out of the text: both deleted at once.
      await saveNotice({ id: first, attachments: [{ name: shared.name, url: shared.url }], content: '<p>改正</p>', published: true });
      expect(await rowOf(a.id)).toBeUndefined();
      expect(await rowOf(b.id)).toBeUndefined();
      expect((await asStaff(a.id)).json().errorCode).toBe(ErrorCode.NotFound);

      // Deleting the first notice keeps what the second still links to; deleting that one ends it.
      expect((await post(t, '/api/admin/deleteNotice', { id: first }, bearer(admin))).body.success).toBe(true);
      expect((await anonymous(shared.url)).statusCode).toBe(200);
      expect((await post(t, '/api/admin/deleteNotice', { id: second }, bearer(admin))).body.success).toBe(true);
      expect(await rowOf(shared.id)).toBeUndefined();
      expect((await anonymous(shared.url)).json().errorCode).toBe(ErrorCode.NotFound);
    });

    it('sweeps uploads nothing has linked to for a day, and only those', async () => {
      const linked = await upload('linked.pdf', pdf('kept'));
      await saveNotice({ attachments: [{ name: linked.name, url: linked.url }] });
      const forgotten = await upload('forgotten.pdf', pdf('never saved'));
      testClock.advance(12 * 3600_000);
      admin = await adminToken(t); // the morning's session has expired by now
      const recent = await upload('recent.pdf', pdf('just uploaded'));
      await t.app.services.attachments.sweep();
      expect(await rowOf(forgotten.id)).toBeDefined();
      testClock.advance(13 * 3600_000);
      expect(await t.app.services.attachments.sweep()).toBeGreaterThanOrEqual(1);
      expect(await rowOf(forgotten.id)).toBeUndefined();
      expect(await rowOf(recent.id)).toBeDefined();
      expect(await rowOf(linked.id)).toBeDefined();
      testClock.reset();
      admin = await adminToken(t);
    });

    it('shows a notice image the sanitizer kept, served because the published notice links to it', async () => {
      const image = await upload('photo.png', PNG);
      const id = await saveNotice({
        content: `<p>考场示意图</p><img src="${image.url}" alt="示意图"><img src="https://tracker.example/p.gif"><img src="//evil.example/x.png">`,
        published: true,
      });
      const notice = (await get(t, `/api/getNoticeDetail?id=${id}`)).body.data;
      expect(notice.content).toContain(`<img src="${image.url.replace('&', '&amp;')}" alt="示意图" />`);
      expect(notice.content).not.toMatch(/tracker|evil/);
      const served = await anonymous(image.url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      // The page's CSP lets a same-origin image load.
      expect(String((await anonymous('/')).headers['content-security-policy'])).toMatch(/img-src 'self'/);
    });

    it('serves files linked from an exam document only once the exam is published, and from the agreement', async () => {
      const guide = await upload('guide.pdf', pdf('exam guide'));
      const examId = await draftExam(t, admin, '附件考试');
      const saved = await post(
        t,
        '/api/admin/saveExamDocument',
        { examId, type: 'guide', title: '报考指南', content: `<p>下载<a href="${guide.url}">指南</a></p>` },
        bearer(admin),
      );
      expect(saved.body.success).toBe(true);
      expect((await anonymous(guide.url)).json().errorCode).toBe(ErrorCode.NotFound);
      await post(t, '/api/admin/setExamPublished', { examId, published: true }, bearer(admin));
      expect((await anonymous(guide.url)).body).toContain('exam guide');

      const terms = await upload('terms.pdf', pdf('agreement annex'));
      expect((await anonymous(terms.url)).json().errorCode).toBe(ErrorCode.NotFound);
      await post(
        t,
        '/api/admin/updateAgreement',
        { title: '注册协议', content: `<p>见<a href="${terms.url}">附件</a></p>` },
        bearer(admin),
      );
      expect((await anonymous(terms.url)).body).toContain('agreement annex');
    });

    it('keeps each office’s files to itself', async () => {
      const file = await upload('mine.pdf', pdf('office A only'));
      await saveNotice({ attachments: [{ name: file.name, url: file.url }], published: true });
      const other = await insertOffice(t, 'attach-b');
      await addStaff(t, other, 'admin', 'admin');
      const otherAdmin = await staffToken(t, 'admin', STAFF_PASSWORD, '?officeCode=attach-b');
      expect((await anonymous(`/api/getAttachment?id=${file.id}&officeCode=attach-b`)).json().errorCode).toBe(ErrorCode.NotFound);
      const foreign = await t.app.inject({
        method: 'GET',
        url: `/api/admin/getAttachment?id=${file.id}&officeCode=attach-b`,
        headers: bearer(otherAdmin),
      });
      expect(foreign.json().errorCode).toBe(ErrorCode.NotFound);
      // B's notice naming A's file links nothing: it stays A's and stays unpublished for B.
      const saved = await post(
        t,
        '/api/admin/saveNotice?officeCode=attach-b',
        { title: '借用', content: '<p>x</p>', attachments: [{ name: 'x', url: file.url }], published: true },
        bearer(otherAdmin),
      );
      expect(saved.body.success).toBe(true);
      expect(await t.db.kysely.selectFrom('attachment_ref').select('owner_id').where('office_id', '=', other).execute()).toEqual([]);
    });

    it('refuses malformed ids with a clear message', async () => {
      for (const id of ['abc', '0', '-1', '99999999999', 'x'.repeat(23), "1' or 1=1"]) {
        const res = await anonymous(`/api/getAttachment?id=${encodeURIComponent(id)}&officeCode=demo`);
        expect(res.json(), id).toMatchObject({ success: false, errorCode: ErrorCode.Validation, msg: '附件编号有误' });
      }
    });
  });
}
