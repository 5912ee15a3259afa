import { APPLICANT_STATUSES } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';
import { ACCOUNTING_FORM, examSuite } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, get, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

/**
 * The console's statistics per position keep applied, approved and confirmed apart, through the
 * real lifecycle (submit, review, confirm), and agree with the plain answer: the application
 * rows counted by the database, and the live count the candidate site shows for the position.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `statistics per position on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, officeId: number;
      examSuite(kind, (s) => ({ t, admin, examId, officeId } = s));

      // The exam free: one click confirms.
      const { registeringNow, confirmingNow } = examWindows(() => ({ t, examId, officeId }));

      async function position(code: string, headcount: number): Promise<number> {
        const res = await post(
          t,
          '/api/admin/savePosition',
          {
            examId,
            code,
            name: `统计岗位${code}`,
            unit: '市统计测试中心',
            headcount,
            description: '',
            requirements: { minEducation: '本科', majors: [], maxAge: 35, sex: '不限', politicalStatus: '不限', workYears: 0, note: '' },
          },
          bearer(admin),
        );
        expect(res.body.success, res.body.msg).toBe(true);
        return res.body.data.id as number;
      }

      async function submitted(positionId: number): Promise<{ id: number; token: string }> {
        const c = await registered(t);
        const saved = await post(t, '/api/saveApplication', { examId, positionId, form: ACCOUNTING_FORM }, bearer(c.token));
        expect(saved.body.success, saved.body.msg).toBe(true);
        await withPhoto(t, c.token);
        const submit = await post(t, '/api/submitApplication', { examId }, bearer(c.token));
        expect(submit.body.success, submit.body.msg).toBe(true);
        const id = (await get(t, `/api/getApplication?examId=${examId}`, bearer(c.token))).body.data.id as number;
        return { id, token: c.token };
      }

      const decide = async (id: number, decision: 'approve' | 'reject') => {
        const res = await post(
          t,
          '/api/admin/reviewApplication',
          { applicationId: id, decision, ...(decision === 'reject' ? { reason: '学历证书信息不清晰，请重新上传' } : {}) },
          bearer(admin),
        );
        expect(res.body.success, res.body.msg).toBe(true);
      };

      it('applied, approved and confirmed per position, equal to the rows and to the live count the site shows', async () => {
        await registeringNow({ fee: 0 });
        const p1 = await position('S01', 2);
        const p2 = await position('S02', 1);
        const idle = await position('S03', 3);

        // S01: four apply; two approved (one then confirms), one rejected, one still waiting.
        const a = [await submitted(p1), await submitted(p1), await submitted(p1), await submitted(p1)];
        // S02: three apply, all approved, two confirm.
        const b = [await submitted(p2), await submitted(p2), await submitted(p2)];
        await decide(a[0]!.id, 'approve');
        await decide(a[1]!.id, 'approve');
        await decide(a[2]!.id, 'reject');
        for (const x of b) await decide(x.id, 'approve');

        await confirmingNow({ fee: 0 });
        for (const x of [a[0]!, b[0]!, b[1]!]) {
          const res = await post(t, '/api/confirmApplication', { examId }, bearer(x.token));
          expect(res.body.data?.status, res.body.msg).toBe('confirmed');
        }

        const stats = await get(t, `/api/admin/getStatistics?examId=${examId}`, bearer(admin));
        expect(stats.body.success, stats.body.msg).toBe(true);
        type Row = { id: number; applied: number; submitted: number; approved: number; rejected: number; confirmed: number; ratio: number };
        const rows = new Map((stats.body.data.positions as Row[]).map((r) => [r.id, r]));
        expect(rows.get(p1)).toMatchObject({ applied: 3, submitted: 1, approved: 1, rejected: 1, confirmed: 1, ratio: 1.5 });
        expect(rows.get(p2)).toMatchObject({ applied: 3, submitted: 0, approved: 1, rejected: 0, confirmed: 2, ratio: 3 });
        expect(rows.get(idle)).toMatchObject({ applied: 0, submitted: 0, approved: 0, rejected: 0, confirmed: 0, ratio: 0 });

        // Every position of the exam against the application rows, counted by the database.
        const live = await t.db.kysely
          .selectFrom('application')
          .select(['position_id', 'status'])
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('exam_id', '=', examId)
          .where('position_id', 'is not', null)
          .groupBy(['position_id', 'status'])
          .execute();
        const count = (id: number, statuses: readonly string[]) =>
          live.filter((r) => r.position_id === id && statuses.includes(r.status)).reduce((sum, r) => sum + Number(r.n), 0);
        for (const r of rows.values()) {
          expect({ id: r.id, applied: r.applied, approved: r.approved, confirmed: r.confirmed, submitted: r.submitted }).toEqual({
            id: r.id,
            applied: count(r.id, APPLICANT_STATUSES),
            approved: count(r.id, ['approved']),
            confirmed: count(r.id, ['confirmed']),
            submitted: count(r.id, ['submitted']),
          });
        }

        // The site's live count of a position is the console's "applied".
        const site = (await get(t, `/api/getPositionList?examId=${examId}&keyword=${encodeURIComponent('统计岗位')}`)).body.data.list as {
          id: number;
          applicants: number;
        }[];
        expect(site.map((p) => [p.id, p.applicants]).sort()).toEqual([p1, p2, idle].map((id) => [id, rows.get(id)!.applied]).sort());
      });
    },
  );
}
