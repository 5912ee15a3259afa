import { idnoCheckChar, type OpeningCheckItem } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSEOUT_DEMO_CANDIDATES, CLOSEOUT_DEMO_EXAM } from '../src/seed/closeout';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/**
 * The demo office `npm start` seeds has an exam at close-out: staff see keep, reduce and cancel
 * proposals and apply them; a candidate of the cancelled position switches, another takes the
 * refund through the sandbox, once; the pending waiver asked in time still confirms.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `demo seed's close-out exam on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await createTestApp(kind, {}, { demoStages: true });
      });
      afterAll(async () => {
        await t?.close();
      });

      async function signIn(name: string): Promise<Record<string, string>> {
        const c = CLOSEOUT_DEMO_CANDIDATES.find((x) => x.name === name)!;
        const login = await post(t, '/api/login', {
          idno: c.first17 + idnoCheckChar(c.first17),
          password: DEMO_CANDIDATE_PASSWORD,
          ...(await captcha(t)),
        });
        expect(login.body.success, login.body.msg).toBe(true);
        return bearer(login.body.data.token as string);
      }

      it('proposes keep, reduce and cancel; after applying, one candidate switches, one is refunded once, a waiver asked in time confirms', async () => {
        const admin = bearer(await adminToken(t));
        const exams = (await get(t, '/api/admin/getExamList', admin)).body.data as { id: number; name: string; phase: string }[];
        const exam = exams.find((e) => e.name === CLOSEOUT_DEMO_EXAM)!;
        expect(exam.phase).toBe('closed');
        // Never "the current exam" the candidate site opens on.
        expect((await get(t, '/api/getCurrentExam')).body.data.id).not.toBe(exam.id);

        const check = (await get(t, `/api/admin/getOpeningCheck?examId=${exam.id}`, admin)).body.data as { positions: OpeningCheckItem[] };
        const by = (name: string) => check.positions.find((p) => p.name === name)!;
        expect(by('阅读推广')).toMatchObject({ headcount: 1, confirmed: 3, proposal: 'keep' });
        expect(by('财务会计')).toMatchObject({ headcount: 2, confirmed: 3, proposal: 'reduce', proposedHeadcount: 1 });
        expect(by('审计')).toMatchObject({ headcount: 1, confirmed: 2, proposal: 'cancel', cancelled: false });

        const paid = (await get(t, `/api/admin/getPaymentList?examId=${exam.id}&status=paid`, admin)).body.data;
        expect(paid).toMatchObject({ total: 6, sum: 30_000 });
        const pending = (await get(t, `/api/admin/getFeeWaiverList?examId=${exam.id}&status=pending`, admin)).body.data;
        expect(pending.list.map((w: { name: string }) => w.name)).toEqual(['梁爽']);

        const applied = await post(
          t,
          '/api/admin/applyOpeningCheck',
          {
            examId: exam.id,
            decisions: check.positions.map((p) => ({ positionId: p.positionId, action: p.proposal, headcount: p.proposedHeadcount })),
          },
          admin,
        );
        expect(applied.body.data).toEqual({ kept: 1, reduced: 1, cancelled: 1 });
        // The position lists say which one is cancelled (the site offers it to nobody), at once.
        const listed = (await get(t, `/api/getPositionList?examId=${exam.id}&pageSize=50`)).body.data.list as {
          id: number;
          cancelled?: boolean;
        }[];
        expect(listed.filter((p) => p.cancelled).map((p) => p.id)).toEqual([by('审计').positionId]);
        expect((await get(t, `/api/getPositionDetail?id=${by('审计').positionId}`)).body.data.cancelled).toBe(true);

        // 宋佳 switches to 财务会计: her payment goes with her.
        const song = await signIn('宋佳');
        expect((await get(t, `/api/getPaymentStatus?examId=${exam.id}`, song)).body.data).toMatchObject({
          status: 'paid',
          positionCancelled: true,
        });
        const switched = await post(t, '/api/switchPosition', { examId: exam.id, positionId: by('财务会计').positionId }, song);
        expect(switched.body.success, switched.body.msg).toBe(true);
        expect((await get(t, `/api/getApplyStatus?examId=${exam.id}`, song)).body.data).toMatchObject({
          status: 'confirmed',
          positionId: by('财务会计').positionId,
        });
        expect((await get(t, `/api/getPaymentStatus?examId=${exam.id}`, song)).body.data).toMatchObject({
          status: 'paid',
          positionCancelled: false,
        });

        // 唐宁 takes the refund: through the sandbox, once, however often he asks.
        const tang = await signIn('唐宁');
        expect((await post(t, '/api/optOutRefund', { examId: exam.id }, tang)).body.success).toBe(true);
        await post(t, '/api/optOutRefund', { examId: exam.id }, tang);
        expect((await get(t, `/api/getPaymentStatus?examId=${exam.id}`, tang)).body.data.status).toBe('refunded');
        expect((await get(t, `/api/getApplyStatus?examId=${exam.id}`, tang)).body.data.status).toBe('cancelled');
        const refunds = await t.db.kysely
          .selectFrom('sandbox_refund as r')
          .innerJoin('payment_order as o', 'o.order_no', 'r.order_no')
          .select(['r.amount'])
          .where('o.exam_id', '=', exam.id)
          .execute();
        expect(refunds).toEqual([{ amount: 5000 }]);

        // 梁爽 asked for her waiver before the deadline: approving it still confirms her.
        const liang = await signIn('梁爽');
        expect((await get(t, `/api/getApplyStatus?examId=${exam.id}`, liang)).body.data.status).toBe('expired');
        const reviewed = await post(t, '/api/admin/reviewFeeWaiver', { waiverId: pending.list[0].id, decision: 'approve' }, admin);
        expect(reviewed.body.success, reviewed.body.msg).toBe(true);
        expect((await get(t, `/api/getApplyStatus?examId=${exam.id}`, liang)).body.data.status).toBe('confirmed');
        expect((await get(t, `/api/getPaymentStatus?examId=${exam.id}`, liang)).body.data.status).toBe('waived');
      });
    },
  );
}
