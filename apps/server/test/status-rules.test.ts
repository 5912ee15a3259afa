import { describe, expect, it } from 'vitest';
import { examSuite, submittedApplication } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, post, registered } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

const FEE = 5000;

/**
 * Paying and asking for a fee waiver are pre-checked by a dry run of the event that will confirm
 * (`pay`, `waive`), not by status checks of their own: before review, after confirmation and in
 * between, each answers as the machine judges, through the real server and database.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `status rules from the machine on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, admin: string, examId: number, officeId: number;
      examSuite(kind, (s) => ({ t, admin, examId, officeId } = s));
      const { registeringNow, confirmingNow } = examWindows(() => ({ t, examId, officeId }));

      /** The waiver form as the candidate site sends it (the refusal comes before the proof is read). */
      async function askWaiver(token: string) {
        const boundary = 'zkstatusrules';
        const payload = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="examId"\r\n\r\n${examId}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\ndibao\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="proof"; filename="p.png"\r\nContent-Type: image/png\r\n\r\nx\r\n` +
            `--${boundary}--\r\n`,
        );
        const r = await t.app.inject({
          method: 'POST',
          url: '/api/applyFeeWaiver',
          headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        });
        return r.json<{ success: boolean; msg?: string }>();
      }
      const pay = async (token: string) =>
        (await post(t, '/api/createPayment', { examId }, bearer(token))).body as { success: boolean; msg?: string };

      it('before review, after confirmation and in between: paying and a waiver answer as the dry run of pay / waive', async () => {
        await registeringNow();
        const waiting = await registered(t);
        await submittedApplication(t, waiting.token);
        const [confirmed, approved] = [await registered(t), await registered(t)];
        for (const c of [confirmed, approved]) {
          const { id } = await submittedApplication(t, c.token);
          const r = await post(t, '/api/admin/reviewApplication', { applicationId: id, decision: 'approve' }, bearer(admin));
          expect(r.body.success, r.body.msg).toBe(true);
        }
        await confirmingNow({ fee: 0 });
        expect((await post(t, '/api/confirmApplication', { examId }, bearer(confirmed.token))).body.success).toBe(true);
        await confirmingNow({ fee: FEE, waiver_categories: JSON.stringify(['dibao']) });

        expect(await pay(waiting.token)).toMatchObject({ success: false, msg: '资格审查通过后才能缴费' });
        expect(await askWaiver(waiting.token)).toMatchObject({ success: false, msg: '资格审查通过后才能申请减免' });
        expect(await pay(confirmed.token)).toMatchObject({ success: false, msg: '报名已确认，无需再缴费' });
        expect(await askWaiver(confirmed.token)).toMatchObject({ success: false, msg: '报名已确认，无需申请减免' });
        const ok = await pay(approved.token);
        expect(ok.success, ok.msg).toBe(true);
      });
    },
  );
}
