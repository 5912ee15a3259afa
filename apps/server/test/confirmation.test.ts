import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { clock, testClock } from '../src/lib/clock';
import { sweepConfirmation } from '../src/modules/confirmation/payments/sweeper';
import { addStaff, applyOpeningCheck, examSuite, staffToken, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, get, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

const DAY = 86_400_000;
const FEE = 5000;
// Real files: a proof is decoded (an image) or parsed (a PDF), not judged by its first bytes.
const PNG = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#ffffff' } })
  .png()
  .toBuffer();
const PDF = Buffer.from(await PDFDocument.create().then((d) => (d.addPage(), d.save())));

/** A multipart body with text fields and one file. */
function multipart(fields: Record<string, string>, file?: { name: string; filename: string; data: Buffer; type: string }) {
  const boundary = 'zkwaiverboundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Fee waivers and close-out (开考比例, 改报, refunds) through the real server. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `waivers and close-out on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, officeId: number;
      examSuite(kind, (s) => ({ t, admin, examId, officeId } = s));

      const { windows, registeringNow, confirmingNow: confirming } = examWindows(() => ({ t, examId, officeId }));
      const confirmingNow = () => confirming({ fee: FEE, waiver_categories: JSON.stringify(['dibao']) });
      const appStatus = async (id: number) =>
        (await t.db.kysely.selectFrom('application').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

      async function approvedCandidates(n: number) {
        await registeringNow();
        const out: { token: string; id: number }[] = [];
        for (let i = 0; i < n; i += 1) {
          const c = await registered(t);
          const { id } = await submittedApplication(t, c.token);
          expect(
            (await post(t, '/api/admin/reviewApplication', { applicationId: id, decision: 'approve' }, bearer(admin))).body.success,
          ).toBe(true);
          out.push({ token: c.token, id });
        }
        await confirmingNow();
        return out;
      }
      const applyWaiver = (token: string, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) => {
        const m = multipart(fields, file);
        return t.app.inject({
          method: 'POST',
          url: '/api/applyFeeWaiver',
          headers: { ...bearer(token), 'content-type': m.contentType },
          payload: m.payload,
        });
      };

      it('a waiver: proof checked by content, category must be on, staff approve → confirmed; reject → may still pay', async () => {
        const [a, b] = await approvedCandidates(2);
        const proof = { name: 'proof', filename: 'proof.png', data: PNG, type: 'image/png' };
        const text = await applyWaiver(
          a!.token,
          { examId: String(examId), category: 'dibao' },
          { ...proof, filename: 'x.png', data: Buffer.from('not an image') },
        );
        expect(text.json()).toMatchObject({ success: false, msg: '证明材料须为 JPG、PNG 图片或 PDF 文件' });
        // A page of HTML behind a JPEG's first bytes is no image (security review 3, N4).
        const html = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from('<html><script>alert(1)</script></html>')]);
        const posing = await applyWaiver(
          a!.token,
          { examId: String(examId), category: 'dibao' },
          { ...proof, filename: 'x.jpg', data: html },
        );
        expect(posing.json()).toMatchObject({ success: false, msg: '证明材料须为 JPG、PNG 图片或 PDF 文件' });
        const off = await applyWaiver(a!.token, { examId: String(examId), category: 'tekun' }, proof);
        expect(off.json().msg).toContain('本考试不受理「特困供养人员」的减免申请');
        const big = await applyWaiver(
          a!.token,
          { examId: String(examId), category: 'dibao' },
          { ...proof, data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) },
        );
        expect(big.json()).toMatchObject({ success: false, msg: '证明材料不能超过 5 MB' });
        const ok = await applyWaiver(a!.token, { examId: String(examId), category: 'dibao' }, proof);
        expect(ok.json().success, ok.json().msg).toBe(true);
        expect((await applyWaiver(a!.token, { examId: String(examId), category: 'dibao' }, proof)).json().msg).toBe(
          '减免申请正在审核，请勿重复提交',
        );
        expect((await post(t, '/api/createPayment', { examId }, bearer(a!.token))).body.msg).toBe('减免申请正在审核，请等待审核结果');
        const okB = await applyWaiver(
          b!.token,
          { examId: String(examId), category: 'dibao' },
          { ...proof, filename: 'p.pdf', type: 'application/pdf', data: PDF },
        );
        expect(okB.json().success).toBe(true);

        const list = await get(t, `/api/admin/getFeeWaiverList?examId=${examId}&status=pending`, bearer(admin));
        const items = list.body.data.list as { id: number; applicationId: number; proofMime: string }[];
        const wa = items.find((w) => w.applicationId === a!.id)!;
        const wb = items.find((w) => w.applicationId === b!.id)!;
        expect(wb.proofMime).toBe('application/pdf');
        const proofRes = await t.app.inject({ method: 'GET', url: `/api/admin/getFeeWaiverProof?id=${wa.id}`, headers: bearer(admin) });
        expect(proofRes.headers['content-type']).toBe('image/png');
        // A reviewer of another unit sees none of them.
        await addStaff(t, officeId, 'wv-other', 'reviewer', ['市教育局']);
        const other = await staffToken(t, 'wv-other');
        expect((await get(t, `/api/admin/getFeeWaiverList?examId=${examId}`, bearer(other))).body.data.total).toBe(0);
        expect((await post(t, '/api/admin/reviewFeeWaiver', { waiverId: wa.id, decision: 'approve' }, bearer(other))).body.success).toBe(
          false,
        );

        const noReason = await post(t, '/api/admin/reviewFeeWaiver', { waiverId: wb.id, decision: 'reject' }, bearer(admin));
        expect(noReason.body.msg).toContain('不通过时必须填写原因');
        const decisions = await Promise.all(
          [1, 2].map(() => post(t, '/api/admin/reviewFeeWaiver', { waiverId: wa.id, decision: 'approve' }, bearer(admin))),
        );
        expect(decisions.filter((d) => d.body.success)).toHaveLength(1);
        expect(await appStatus(a!.id)).toBe('confirmed');
        expect((await get(t, `/api/getPaymentStatus?examId=${examId}`, bearer(a!.token))).body.data).toMatchObject({
          status: 'waived',
          waiver: { status: 'approved' },
        });
        const audited = await t.db.kysely.selectFrom('audit_log').select('action').where('target', '=', `application:${a!.id}`).execute();
        expect(audited.map((x) => x.action)).toContain('减免确认');

        expect(
          (await post(t, '/api/admin/reviewFeeWaiver', { waiverId: wb.id, decision: 'reject', reason: '证明材料不清晰' }, bearer(admin)))
            .body.success,
        ).toBe(true);
        expect((await get(t, `/api/getPaymentStatus?examId=${examId}`, bearer(b!.token))).body.data.waiver).toMatchObject({
          status: 'rejected',
          reason: '证明材料不清晰',
        });
        const pay = await post(t, '/api/createPayment', { examId }, bearer(b!.token));
        expect(pay.body.success, pay.body.msg).toBe(true);
      });

      it('close-out: proposals from the ratio, decisions in one transaction, switch, opt-out refund, refunds when the window closes — each once', async () => {
        const cands = await approvedCandidates(3);
        for (const c of cands) {
          const order = (await post(t, '/api/createPayment', { examId }, bearer(c.token))).body.data;
          await post(t, '/api/payment/sandbox/pay', { orderNo: order.orderNo });
        }
        const until = Date.now() + 5000;
        while (Date.now() < until && (await Promise.all(cands.map((c) => appStatus(c.id)))).some((s) => s !== 'confirmed'))
          await new Promise((r) => setImmediate(r));
        for (const c of cands) expect(await appStatus(c.id)).toBe('confirmed');

        // Confirmation over; switch window open now.
        await windows({ confirmation_start: -5, confirmation_end: -1, switch_start: -0.5, switch_end: 2 }, { opening_ratio: 3 });
        const check = await get(t, `/api/admin/getOpeningCheck?examId=${examId}`, bearer(admin));
        expect(check.body.success, check.body.msg).toBe(true);
        const positions = check.body.data.positions as {
          positionId: number;
          name: string;
          headcount: number;
          confirmed: number;
          proposal: string;
          proposedHeadcount: number;
        }[];
        const accounting = positions.find((p) => p.name === '财务会计')!;
        expect(accounting.confirmed).toBeGreaterThanOrEqual(3);
        const expected =
          accounting.confirmed >= accounting.headcount * 3 ? 'keep' : Math.floor(accounting.confirmed / 3) >= 1 ? 'reduce' : 'cancel';
        expect(accounting.proposal).toBe(expected);
        const empty = positions.find((p) => p.confirmed === 0 && p.name !== '财务会计')!;
        expect(empty).toMatchObject({ proposal: 'cancel', proposedHeadcount: 0 });

        // One bad decision: nothing of the batch is applied.
        const bad = await applyOpeningCheck(t, admin, examId, [
          { positionId: accounting.positionId, action: 'cancel', headcount: 0 },
          { positionId: empty.positionId, action: 'reduce', headcount: 99 },
        ]);
        expect(bad.success).toBe(false);
        expect(
          (
            await t.db.kysely
              .selectFrom('position')
              .select('cancelled_at')
              .where('id', '=', accounting.positionId)
              .executeTakeFirstOrThrow()
          ).cancelled_at,
        ).toBeNull();
        const applied = await applyOpeningCheck(t, admin, examId, [{ positionId: accounting.positionId, action: 'cancel', headcount: 0 }]);
        expect(applied.data).toEqual({ kept: 0, reduced: 0, cancelled: 1 });

        const [switcher, quitter, idle] = cands as [(typeof cands)[0], (typeof cands)[0], (typeof cands)[0]];
        const open = positions.find((p) => p.name === '行政辅助')!;
        const unfit = positions.find((p) => p.name === '综合管理')!;
        expect((await post(t, '/api/switchPosition', { examId, positionId: unfit.positionId }, bearer(switcher.token))).body.msg).toContain(
          '不符合该岗位的报考条件',
        );
        const switched = await post(t, '/api/switchPosition', { examId, positionId: open.positionId }, bearer(switcher.token));
        expect(switched.body.success, switched.body.msg).toBe(true);
        expect(switched.body.data).toMatchObject({ status: 'confirmed', positionId: open.positionId });
        const opted = await Promise.all([1, 2].map(() => post(t, '/api/optOutRefund', { examId }, bearer(quitter.token))));
        expect(opted.every((r) => r.body.success)).toBe(true);
        expect(await appStatus(quitter.id)).toBe('cancelled');

        // The window closes: whoever did neither is cancelled and refunded; sweeping again changes nothing.
        testClock.set(new Date(clock.now().getTime() + 2 * DAY + 60_000).toISOString());
        await sweepConfirmation(t.app);
        await sweepConfirmation(t.app);
        expect(await appStatus(idle.id)).toBe('cancelled');
        expect(await appStatus(switcher.id)).toBe('confirmed');
        for (const c of [quitter, idle]) {
          const orders = await t.db.kysely
            .selectFrom('payment_order')
            .select(['order_no', 'status'])
            .where('application_id', '=', c.id)
            .execute();
          expect(orders.map((o) => o.status)).toEqual(['refunded']);
          const refunds = await t.db.kysely.selectFrom('sandbox_refund').selectAll().where('order_no', '=', orders[0]!.order_no).execute();
          expect(refunds).toHaveLength(1);
        }
        const switcherOrder = await t.db.kysely
          .selectFrom('payment_order')
          .select('status')
          .where('application_id', '=', switcher.id)
          .executeTakeFirstOrThrow();
        expect(switcherOrder.status).toBe('paid');
      });
    },
  );
}
