import { NOT_FOUND_TEXT } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, submittedApplication } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, COMPLETE_FORM, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * 报名号 (given at the first submit, kept through withdrawals, unique in the exam), notices linked
 * to an exam and listed with its 招考公告, 我的消息 marking what it showed as read, and the draft's
 * missing fields judged as the form shows them.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `报名号 and exam notices on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      let examId: number;
      let positionId: number;
      let admin: string;

      beforeAll(async () => {
        t = await createTestApp(kind);
        admin = await adminToken(t);
        const exams = (await get(t, '/api/getExamList')).body.data as { id: number; phase: string }[];
        examId = exams.find((e) => e.phase === 'registering')!.id;
        const positions = (await get(t, `/api/getPositionList?examId=${examId}&pageSize=50`)).body.data.list as {
          id: number;
          name: string;
        }[];
        positionId = positions.find((p) => p.name === '软件开发')!.id;
      });
      afterAll(async () => {
        await t?.close();
      });

      async function submitted() {
        const r = await registered(t);
        await withPhoto(t, r.token);
        await post(t, '/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, bearer(r.token));
        const s = await post(t, '/api/submitApplication', { examId }, bearer(r.token));
        expect(s.body.success, s.body.msg).toBe(true);
        return { token: r.token, submit: s.body.data as { status: string; applicationNo: string | null } };
      }
      const status = async (token: string) => (await get(t, `/api/getApplyStatus?examId=${examId}`, bearer(token))).body.data;

      it('gives a 报名号 at the first submit, keeps it through withdraw and resubmit, and never gives it twice in the exam', async () => {
        const r = await registered(t);
        await withPhoto(t, r.token);
        await post(t, '/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, bearer(r.token));
        expect((await status(r.token)).applicationNo).toBeNull();

        const first = await post(t, '/api/submitApplication', { examId }, bearer(r.token));
        const no = first.body.data.applicationNo as string;
        // Year, exam code, running number: ten digits, read out as one.
        expect(no).toMatch(/^\d{10}$/);
        expect(await status(r.token)).toMatchObject({ status: 'submitted', applicationNo: no });
        expect((await post(t, '/api/withdrawApplication', { examId }, bearer(r.token))).body.data).toMatchObject({
          status: 'draft',
          applicationNo: no,
        });
        expect((await post(t, '/api/submitApplication', { examId }, bearer(r.token))).body.data).toMatchObject({
          status: 'submitted',
          applicationNo: no,
        });
        const mine = (await get(t, '/api/getMyApplications', bearer(r.token))).body.data as {
          exam: { id: number };
          applicationNo: string;
        }[];
        expect(mine.find((a) => a.exam.id === examId)?.applicationNo).toBe(no);

        // Submits at the same moment: each its own number, next in the exam's sequence.
        const many = await Promise.all([1, 2, 3, 4, 5].map(() => submitted()));
        const numbers = many.map((m) => m.submit.applicationNo!);
        expect(new Set([...numbers, no]).size).toBe(6);
        for (const n of numbers) {
          expect(n.slice(0, 4)).toBe(no.slice(0, 4));
          expect(Number(n.slice(4))).toBeGreaterThan(Number(no.slice(4)));
        }
      });

      it('numbers every submitted application of the demo seed, and exports the 报名号 instead of the database id', async () => {
        const missing = await t.db.kysely
          .selectFrom('application')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('submitted_at', 'is not', null)
          .where('application_no', 'is', null)
          .executeTakeFirstOrThrow();
        expect(Number(missing.n)).toBe(0);
        const dup = await t.db.kysely
          .selectFrom('application')
          .select(['exam_id', 'application_no'])
          .where('application_no', 'is not', null)
          .groupBy(['exam_id', 'application_no'])
          .having((eb) => eb.fn.countAll(), '>', 1)
          .execute();
        expect(dup).toEqual([]);
      });

      it('links a notice to an exam and lists it with the exam’s 招考公告; a general notice stays out of the exam’s list', async () => {
        const save = (body: Record<string, unknown>) =>
          post(t, '/api/admin/saveNotice', { summary: '', content: '<p>正文</p>', published: true, ...body }, bearer(admin));
        const linked = await save({ title: '关于资格复审的通知（本考试）', examId });
        expect(linked.body.success, linked.body.msg).toBe(true);
        const general = await save({ title: '网站维护通知' });
        expect(general.body.success).toBe(true);
        expect((await save({ title: '无效考试', examId: 999_999 })).body).toMatchObject({
          success: false,
          msg: NOT_FOUND_TEXT.exam,
        });
        const examName = ((await get(t, '/api/getExamList')).body.data as { id: number; name: string }[]).find(
          (e) => e.id === examId,
        )!.name;

        const forExam = (await get(t, `/api/getNoticeList?examId=${examId}&page=1&pageSize=50`)).body.data;
        expect(forExam.list.map((n: { title: string }) => n.title)).toContain('关于资格复审的通知（本考试）');
        expect(forExam.list.map((n: { title: string }) => n.title)).not.toContain('网站维护通知');
        expect(forExam.list.every((n: { examId: number }) => n.examId === examId)).toBe(true);
        // The exam's own 招考公告 comes with them.
        expect(forExam.examNotices).toHaveLength(1);
        expect(forExam.examNotices[0]).toMatchObject({ examId, examName });

        // 通知公告 lists every published exam's 招考公告, and names the exam of a linked notice.
        const all = (await get(t, '/api/getNoticeList?page=1&pageSize=50')).body.data;
        expect(all.examNotices.map((e: { examId: number }) => e.examId)).toContain(examId);
        expect(all.list.find((n: { id: number }) => n.id === linked.body.data.id)).toMatchObject({ examId, examName });
        expect(all.list.find((n: { id: number }) => n.id === general.body.data.id)).toMatchObject({ examId: null, examName: null });
        expect((await get(t, `/api/getNoticeDetail?id=${linked.body.data.id}`)).body.data).toMatchObject({ examId, examName });
        // The console reads the link back.
        expect((await get(t, `/api/admin/getNoticeDetail?id=${linked.body.data.id}`, bearer(admin))).body.data).toMatchObject({ examId });
      });

      it('marks read the messages 我的消息 showed (ids), only the candidate’s own', async () => {
        const a = await registered(t);
        const b = await registered(t);
        const appA = await submittedApplication(t, a.token);
        const appB = await submittedApplication(t, b.token);
        for (const id of [appA.id, appB.id])
          await post(
            t,
            '/api/admin/reviewApplication',
            { applicationId: id, decision: 'reject', reason: '请补充材料后重新提交' },
            bearer(admin),
          );
        const inbox = async (token: string) => (await get(t, '/api/getMessageList?page=1&pageSize=20', bearer(token))).body.data;
        const listA = await inbox(a.token);
        const listB = await inbox(b.token);
        expect(listA.unread).toBeGreaterThan(0);
        const idsA = listA.list.map((m: { id: number }) => m.id);
        const idsB = listB.list.map((m: { id: number }) => m.id);
        // B's ids in A's request change nothing of B's.
        const read = await post(t, '/api/readMessage', { ids: [...idsA, ...idsB] }, bearer(a.token));
        expect(read.body).toMatchObject({ success: true, data: { unread: 0 } });
        expect((await get(t, '/api/getUnreadCount', bearer(a.token))).body.data.unread).toBe(0);
        expect((await get(t, '/api/getUnreadCount', bearer(b.token))).body.data.unread).toBe(listB.unread);
        expect((await post(t, '/api/readMessage', { ids: [] }, bearer(a.token))).body.success).toBe(false);
      });

      it('does not ask a draft for the phone the form shows from the account', async () => {
        const r = await registered(t);
        await post(t, '/api/saveApplication', { examId, form: { pledge: true, school: '浙江大学' } }, bearer(r.token));
        const mine = (await get(t, '/api/getMyApplications', bearer(r.token))).body.data as { exam: { id: number }; missing: string[] }[];
        const draft = mine.find((a) => a.exam.id === examId)!;
        expect(draft.missing.length).toBeGreaterThan(0);
        expect(draft.missing).not.toContain('联系电话');
        expect(draft.missing).not.toContain('毕业院校');
      });
    },
  );
}
