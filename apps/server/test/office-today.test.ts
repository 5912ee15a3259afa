import { OPEN_REQUIREMENTS } from '@zhikaoyun/shared';
import { describe, expect, it } from 'vitest';
import { testClock } from '../src/lib/clock';
import { adminToken, examSuite, LASTING_PASSWORDS } from './helpers/actors';
import type { TestApp } from './helpers/app';
import { bearer, COMPLETE_FORM, get, newIdno, post, registered, withPhoto } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { examWindows } from './helpers/exam-windows';

/**
 * "Today" of a position's eligibility is the office's day (Beijing), one helper for the position
 * list, its detail and submit. The candidate turns 36 on 2030-03-15, so a 35周岁以下 position is
 * theirs until the end of the 14th in Beijing: at 00:30 on the 15th in Beijing (16:30 UTC on the
 * 14th, when the UTC date still says the 14th) every answer says no; at 23:30 on the 14th every
 * answer says yes.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(
    `the office's today for eligibility on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`,
    () => {
      let t: TestApp, examId: number, officeId: number;
      // The clock goes to 2030: staff passwords that last that long.
      examSuite(kind, (s) => ({ t, examId, officeId } = s), LASTING_PASSWORDS);
      const { registeringNow } = examWindows(() => ({ t, examId, officeId }));

      it('list, detail and submit agree at 00:30 and 23:30 Beijing time on the day the age limit flips', async () => {
        testClock.set('2030-03-14T15:30:00.000Z');
        await registeringNow();
        // Signed in on the moved clock: a token of today's real time has long expired in 2030.
        const admin = await adminToken(t);
        const saved = await post(
          t,
          '/api/admin/savePosition',
          {
            examId,
            code: 'AGE35',
            name: '年龄临界岗位',
            unit: '青川县档案馆',
            headcount: 1,
            description: '',
            requirements: { ...OPEN_REQUIREMENTS, maxAge: 35 },
          },
          bearer(admin),
        );
        expect(saved.body.success, saved.body.msg).toBe(true);
        const positionId = saved.body.data.id as number;

        const c = await registered(t, { idno: newIdno({ birthday: '1994-03-15' }) });
        const draft = await post(t, '/api/saveApplication', { examId, positionId, form: COMPLETE_FORM }, bearer(c.token));
        expect(draft.body.success, draft.body.msg).toBe(true);
        await withPhoto(t, c.token);

        const answers = async () => {
          const list = await get(t, `/api/getPositionList?examId=${examId}&keyword=AGE35`, bearer(c.token));
          const own = await get(t, `/api/getPositionList?examId=${examId}&keyword=AGE35&eligibleOnly=true`, bearer(c.token));
          const detail = await get(t, `/api/getPositionDetail?id=${positionId}`, bearer(c.token));
          const row = list.body.data.list[0];
          return {
            list: row.eligible as boolean,
            listReasons: row.reasons as string[],
            eligibleOnly: (own.body.data.list as { id: number }[]).some((p) => p.id === positionId),
            detail: detail.body.data.eligible as boolean,
            detailReasons: detail.body.data.reasons as string[],
          };
        };

        // 00:30 on 15 March in Beijing: 36 today, whatever the UTC date says.
        testClock.set('2030-03-14T16:30:00.000Z');
        const after = await answers();
        expect(after).toEqual({
          list: false,
          listReasons: ['年龄要求：35周岁以下；您的年龄：36周岁'],
          eligibleOnly: false,
          detail: false,
          detailReasons: ['年龄要求：35周岁以下；您的年龄：36周岁'],
        });
        const refused = await post(t, '/api/submitApplication', { examId }, bearer(c.token));
        expect(refused.body.success).toBe(false);
        expect(refused.body.msg).toBe('不符合该岗位的报考条件：年龄要求：35周岁以下；您的年龄：36周岁');

        // 23:30 on 14 March in Beijing, the evening before: still 35, so everything says yes.
        testClock.set('2030-03-14T15:30:00.000Z');
        expect(await answers()).toEqual({ list: true, listReasons: [], eligibleOnly: true, detail: true, detailReasons: [] });
        const submitted = await post(t, '/api/submitApplication', { examId }, bearer(c.token));
        expect(submitted.body.success, submitted.body.msg).toBe(true);
      });
    },
  );
}
