import { idnoCheckChar } from '@zhikaoyun/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CANDIDATE_PASSWORD } from '../src/seed/confirmation';
import { SCORE_DEMO_CANDIDATES } from '../src/seed/scores';
import { adminToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { multipart, sheet } from './helpers/sheets';

/**
 * The stages after the interview list, through the real server on the demo exam at the scores
 * stage (1:1 lists): 财务会计 (2 posts) lists 林晓 84, 高远 75 and 谢文 75 (tied); 行政辅助 (2 posts)
 * lists 何雨 78 and 邓洁 71.
 */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`later stages on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let admin: string;
    let examId: number;
    const ticket = new Map<string, string>();
    const person = (name: string) => SCORE_DEMO_CANDIDATES.find((c) => c.name === name)!;

    beforeAll(async () => {
      t = await createTestApp(kind, {}, { demoStages: true });
      admin = await adminToken(t);
      const exam = await t.db.kysely.selectFrom('exam').select('id').where('name', 'like', '%成绩公布阶段%').executeTakeFirstOrThrow();
      examId = exam.id;
      const rows = await t.db.kysely
        .selectFrom('admission_ticket as t')
        .innerJoin('application as a', 'a.id', 't.application_id')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select(['c.name', 't.ticket_no'])
        .where('t.exam_id', '=', examId)
        .execute();
      for (const r of rows) ticket.set(r.name, r.ticket_no);
    });
    afterAll(async () => {
      await t?.close();
    });

    const board = async () => (await get(t, `/api/admin/getStageBoard?examId=${examId}`, bearer(admin))).body.data;
    const rowOf = async (name: string) =>
      (await board()).positions.flatMap((p: { rows: { name: string }[] }) => p.rows).find((r: { name: string }) => r.name === name);
    const record = (stage: 'qualification' | 'medical', results: [string, 'pass' | 'fail' | 'gaveUp'][]) =>
      post(
        t,
        '/api/admin/recordStageResults',
        { examId, stage, results: results.map(([name, outcome]) => ({ ticketNo: ticket.get(name) ?? name, outcome })) },
        bearer(admin),
      );
    const importInterview = async (rows: (string | number)[][], dryRun: boolean) => {
      const { payload, headers } = multipart(
        { examId: String(examId), dryRun: String(dryRun) },
        await sheet([['准考证号', '面试成绩'], ...rows]),
      );
      return (
        await t.app.inject({ method: 'POST', url: '/api/admin/importInterviewScores', payload, headers: { ...headers, ...bearer(admin) } })
      ).json<{ success: boolean; msg?: string; data?: { imported: number; errors: { row: number; msg: string }[] } }>();
    };
    const publish = (stage: string) => post(t, '/api/admin/publishStage', { examId, stage }, bearer(admin));
    const list = (stage: string) => get(t, `/api/getStageList?examId=${examId}&stage=${stage}`);

    it('starts from the interview list, publishes nothing unrecorded, and shows no list before it is published', async () => {
      const b = await board();
      expect(b.interviewWeight).toBe(50);
      expect(b.positions.map((p: { rows: { name: string }[] }) => p.rows.map((r) => r.name).sort())).toEqual([
        ['林晓', '谢文', '高远'].sort(),
        ['何雨', '邓洁'].sort(),
      ]);
      expect((await publish('qualification')).body).toMatchObject({ success: false, msg: '还没有记录资格复审结果，不能公布' });
      expect((await publish('hire')).body).toMatchObject({ success: false, msg: '还没有记录体检结果，不能公布' });
      expect((await list('qualification')).body).toMatchObject({ success: false, msg: '资格复审合格人员名单尚未公布' });
    });

    it('records 资格复审 all or nothing: a ticket outside the interview list refuses the batch', async () => {
      const refused = await record('qualification', [
        ['林晓', 'pass'],
        ['冯涛', 'pass'],
      ]);
      expect(refused.body).toMatchObject({ success: false });
      expect(refused.body.msg).toContain('不在面试名单中，未保存任何结果');
      expect((await rowOf('林晓')).qualification).toBeNull();
      const saved = await record('qualification', [
        ['林晓', 'pass'],
        ['高远', 'pass'],
        ['谢文', 'fail'],
        ['何雨', 'pass'],
        ['邓洁', 'pass'],
      ]);
      expect(saved.body).toMatchObject({ success: true, data: { saved: 5 } });
      expect((await rowOf('谢文')).qualification).toBe('fail');
      const log = await t.db.kysely.selectFrom('audit_log').select('detail').where('action', '=', '记录资格复审结果').execute();
      expect(log.map((l) => l.detail)).toEqual(['合格 4 人，不合格 1 人']);
    });

    it('imports interview scores all or nothing, only for those still in the running', async () => {
      const bad = await importInterview(
        [
          [ticket.get('林晓')!, 80],
          [ticket.get('谢文')!, 95],
          [ticket.get('高远')!, 120],
        ],
        false,
      );
      expect(bad.success, bad.msg).toBe(true);
      expect(bad.data!.imported).toBe(0);
      expect(bad.data!.errors.map((e) => e.row)).toEqual([3, 4]);
      expect((await rowOf('林晓')).interview).toBeNull();
      const rows = [
        [ticket.get('林晓')!, 80],
        [ticket.get('高远')!, 90],
        [ticket.get('何雨')!, '缺考'],
        [ticket.get('邓洁')!, 85],
      ];
      expect((await importInterview(rows, true)).data).toMatchObject({ imported: 0, errors: [] });
      expect((await importInterview(rows, false)).data).toMatchObject({ imported: 4, errors: [] });
      expect((await rowOf('何雨')).interview).toEqual({ outcome: 'absent', score: null });
    });

    it('combines by the weight, ranks, and sends one per post to 体检; one who fails is replaced by the next', async () => {
      expect((await post(t, '/api/admin/saveStageWeight', { examId, interviewWeight: 101 }, bearer(admin))).body.success).toBe(false);
      expect((await post(t, '/api/admin/saveStageWeight', { examId, interviewWeight: 40 }, bearer(admin))).body.success).toBe(true);
      // 林晓 84 × 0.6 + 80 × 0.4 = 82.4; 高远 75 × 0.6 + 90 × 0.4 = 81; 邓洁 71 × 0.6 + 85 × 0.4 = 76.6.
      expect(await rowOf('林晓')).toMatchObject({ combined: 82.4, finalRank: 1, inMedical: true });
      expect(await rowOf('高远')).toMatchObject({ combined: 81, finalRank: 2, inMedical: true });
      expect(await rowOf('邓洁')).toMatchObject({ combined: 76.6, finalRank: 1, inMedical: true });
      expect(await rowOf('何雨')).toMatchObject({ combined: null, finalRank: null, inMedical: false });
      expect(await rowOf('谢文')).toMatchObject({ combined: null, inMedical: false });

      expect((await record('medical', [['何雨', 'pass']])).body.msg).toContain('不在体检名单中');
      expect(
        (
          await record('medical', [
            ['林晓', 'pass'],
            ['高远', 'fail'],
            ['邓洁', 'pass'],
          ])
        ).body.success,
      ).toBe(true);
      expect(await rowOf('林晓')).toMatchObject({ hired: true });
      expect(await rowOf('高远')).toMatchObject({ inMedical: true, hired: false });
    });

    it('publishes each stage: the lists open with masked names, and the candidate sees their own results', async () => {
      const idno = person('林晓').first17 + idnoCheckChar(person('林晓').first17);
      const login = await post(t, '/api/login', { idno, password: DEMO_CANDIDATE_PASSWORD, ...(await captcha(t)) });
      const token = login.body.data.token as string;
      const mine = async () => (await get(t, `/api/getMyStages?examId=${examId}`, bearer(token))).body.data;
      expect(await mine()).toEqual([]);
      const all = async () => (await get(t, `/api/getStageLists?examId=${examId}`)).body;
      expect(await all()).toMatchObject({ success: true, data: [] });

      expect((await publish('qualification')).body.success).toBe(true);
      expect(((await all()).data as { stage: string }[]).map((l) => l.stage)).toEqual(['qualification']);
      for (const stage of ['interview', 'medical', 'hire']) expect((await publish(stage)).body.success, stage).toBe(true);
      // One call for the page beside the interview list: every published list, in stage order, as each alone.
      const lists = (await all()).data as { stage: string; title: string }[];
      expect(lists.map((l) => l.stage)).toEqual(['qualification', 'interview', 'medical', 'hire']);
      for (const l of lists) expect(l).toEqual((await list(l.stage)).body.data);
      const hire = (await list('hire')).body.data;
      expect(hire.title).toBe('拟录用人员名单');
      expect(hire.positions.flatMap((p: { list: { name: string }[] }) => p.list.map((c) => c.name)).sort()).toEqual(['林*', '邓*']);
      const qualified = (await list('qualification')).body.data;
      expect(qualified.positions.flatMap((p: { list: unknown[] }) => p.list)).toHaveLength(4);
      expect(JSON.stringify(qualified)).not.toContain('林晓');
      const ranking = (await list('interview')).body.data;
      expect(ranking.positions[0].list[0]).toMatchObject({ name: '林*', written: 84, interview: 80, combined: 82.4, rank: 1 });

      expect(await mine()).toEqual([
        expect.objectContaining({ stage: 'qualification', result: '合格' }),
        expect.objectContaining({ stage: 'interview', interview: 80, combined: 82.4, rank: 1 }),
        expect.objectContaining({ stage: 'medical', result: '进入体检，合格' }),
        expect.objectContaining({ stage: 'hire', result: '拟录用' }),
      ]);
      const log = await t.db.kysely.selectFrom('audit_log').select(['action', 'detail']).where('action', 'like', '公布%').execute();
      expect(log.map((l) => l.action)).toEqual(expect.arrayContaining(['公布拟录用人员名单', '公布体检人员名单']));
      expect(log.find((l) => l.action === '公布资格复审合格人员名单')?.detail).toMatch(/；通知 \d+ 人$/);

      // Each publishing told her, once: publishing again after a correction tells no one again.
      const messages = async () =>
        ((await get(t, '/api/getMessageList?page=1&pageSize=50', bearer(token))).body.data.list as { title: string; content: string }[])
          .filter((m) => m.title === '下一环节结果')
          .map((m) => m.content);
      const told = await messages();
      expect(told).toEqual(
        expect.arrayContaining([
          expect.stringContaining('资格复审结果已公布：合格'),
          expect.stringContaining('面试成绩已公布：面试 80 分，综合成绩岗位第 1 名'),
          expect.stringContaining('您已进入体检环节'),
          expect.stringContaining('您已列入拟录用人员名单'),
        ]),
      );
      expect((await publish('hire')).body.success).toBe(true);
      expect(await messages()).toHaveLength(told.length);
    });

    it('every step goes through the machine after confirmation: a refused one is told why and writes nothing; an allowed one writes its history and audit', async () => {
      const k = t.db.kysely;
      const appOf = async (name: string) =>
        (
          await k
            .selectFrom('application as a')
            .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
            .select('a.id')
            .where('c.name', '=', name)
            .where('a.exam_id', '=', examId)
            .executeTakeFirstOrThrow()
        ).id;
      const history = async (name: string) =>
        await k
          .selectFrom('later_history')
          .select(['event', 'from_state', 'to_state'])
          .where('application_id', '=', await appOf(name))
          .orderBy('id')
          .execute();
      const written = async () => ({
        history: Number(
          (
            await k
              .selectFrom('later_history')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        audit: Number(
          (
            await k
              .selectFrom('audit_log')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
        results: await k
          .selectFrom('stage_result')
          .select(['application_id', 'stage', 'outcome'])
          .orderBy('application_id')
          .orderBy('stage')
          .execute(),
      });

      // The steps so far, each with the state it was judged in and the one it led to.
      expect(await history('林晓')).toEqual([
        { event: 'passQualification', from_state: 'reviewing', to_state: 'interviewing' },
        { event: 'recordInterview', from_state: 'interviewing', to_state: 'interviewed' },
        { event: 'passMedical', from_state: 'medical', to_state: 'hired' },
      ]);
      expect(await history('谢文')).toEqual([{ event: 'failQualification', from_state: 'reviewing', to_state: 'out' }]);
      expect(await history('何雨')).toEqual([
        { event: 'passQualification', from_state: 'reviewing', to_state: 'interviewing' },
        { event: 'missInterview', from_state: 'interviewing', to_state: 'out' },
      ]);
      expect((await rowOf('谢文')).state).toBe('out');
      expect((await rowOf('林晓')).state).toBe('hired');

      // Refused, in the machine's words: 不合格 at 资格复审 is the end (no 合格 afterwards); a batch
      // with one refused step saves none of it; 放弃面试 is for one still on the list before a result.
      const before = await written();
      expect((await record('qualification', [['谢文', 'pass']])).body).toMatchObject({
        success: false,
        msg: '只有面试名单中待资格复审的考生可以记录复审合格',
      });
      expect((await record('qualification', [['林晓', 'fail']])).body).toMatchObject({
        success: false,
        msg: '只有面试名单中尚未进入体检的考生可以记录资格复审不合格',
      });
      expect(
        (
          await record('medical', [
            ['林晓', 'gaveUp'],
            ['高远', 'pass'],
          ])
        ).body,
      ).toMatchObject({
        success: false,
        msg: `准考证号 ${ticket.get('高远')}：只有进入体检且尚无结果的考生可以记录体检合格，未保存任何结果`,
      });
      expect((await post(t, '/api/admin/recordGiveUp', { examId, ticketNo: ticket.get('谢文') }, bearer(admin))).body).toMatchObject({
        success: false,
        msg: '该考生不在面试名单中，无需记录放弃',
      });
      expect(await written()).toEqual(before);

      // A result already recorded is a repeat: nothing written for it.
      expect((await record('qualification', [['林晓', 'pass']])).body.success).toBe(true);
      expect(await written()).toEqual(before);

      // 拟录用 given up: the step, its history row and one audit entry.
      expect((await record('medical', [['林晓', 'gaveUp']])).body.success).toBe(true);
      expect((await history('林晓')).at(-1)).toEqual({ event: 'giveUpMedical', from_state: 'hired', to_state: 'gaveUp' });
      expect((await rowOf('林晓')).state).toBe('gaveUp');
      const after = await written();
      expect([after.history - before.history, after.audit - before.audit]).toEqual([1, 1]);
      const audit = await k.selectFrom('audit_log').select(['action', 'target', 'detail']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(audit).toEqual({ action: '记录体检结果', target: `exam:${examId}`, detail: '放弃 1 人' });
    });
  });
}
