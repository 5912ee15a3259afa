import { beforeAll, describe, expect, it } from 'vitest';
import { confirmedSuite, savedSite, savedSubject } from './helpers/actors';
import { type TestApp } from './helpers/app';
import { bearer, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';

/** 考点城市: candidates choose the city of their site, and the arrangement seats them there. */
for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`site city choice on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp, admin: string, examId: number, apps: number[], tokens: string[];
    confirmedSuite(kind, 5, (s) => ({ t, admin, examId, apps, tokens } = s));

    beforeAll(async () => {
      await savedSubject(t, admin, examId, '公共基础知识', '2027-03-01T01:00:00Z');
      for (const [name, city, seats] of [
        ['杭州一中', '杭州', 2],
        ['宁波一中', '宁波', 2],
        ['温州一中', '温州', 5],
      ] as const)
        await savedSite(t, admin, { examId, name, address: '人民路 1 号', city, rooms: 1, seatsPerRoom: seats });
    });

    const setChoice = async (on: boolean) => {
      const list = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as Record<string, unknown>[];
      const e = list.find((x) => x.id === examId)!;
      const config = e.config as { fields: unknown; required: unknown };
      const r = await post(
        t,
        '/api/admin/saveExam',
        {
          id: examId,
          name: e.name,
          registrationStart: e.registrationStart,
          registrationEnd: e.registrationEnd,
          reviewStart: e.reviewStart,
          reviewEnd: e.reviewEnd,
          confirmationStart: e.confirmationStart,
          confirmationEnd: e.confirmationEnd,
          config,
          published: e.published,
          fee: e.fee,
          openingRatio: e.openingRatio,
          waiverCategories: e.waiverCategories,
          switchStart: e.switchStart,
          switchEnd: e.switchEnd,
          siteCityChoice: on,
        },
        bearer(admin),
      );
      expect(r.body.success, r.body.msg).toBe(true);
      const after = (await get(t, '/api/admin/getExamList', bearer(admin))).body.data as { id: number; siteCityChoice: boolean }[];
      expect(after.find((x) => x.id === examId)?.siteCityChoice).toBe(on);
    };
    const choose = (i: number, city: string) => post(t, '/api/chooseSiteCity', { examId, city }, bearer(tokens[i]!));
    const seatCities = async () =>
      t.db.kysely
        .selectFrom('exam_seat as s')
        .innerJoin('exam_site as x', 'x.id', 's.site_id')
        .select(['s.application_id', 'x.city'])
        .where('s.exam_id', '=', examId)
        .execute();

    it('setting off: the cities call and the choice are refused in Chinese', async () => {
      const r = await get(t, `/api/getExamSiteCities?examId=${examId}`);
      expect(r.body.success).toBe(false);
      expect(r.body.msg).toContain('不提供考点城市选择');
      const c = await choose(0, '杭州');
      expect(c.body.success).toBe(false);
      expect(c.body.msg).toContain('不提供考点城市选择');
      const mine = await get(t, `/api/getMySiteCity?examId=${examId}`, bearer(tokens[0]!));
      expect(mine.body.data).toMatchObject({ enabled: false });
    });

    it('setting on: lists the cities of the sites; a city without sites is refused', async () => {
      await setChoice(true);
      const r = await get(t, `/api/getExamSiteCities?examId=${examId}`);
      expect(r.body.data).toEqual({ cities: ['宁波', '杭州', '温州'].sort() });
      const bad = await choose(0, '上海');
      expect(bad.body.success).toBe(false);
      expect(bad.body.msg).toContain('上海 没有本考试的考点');
    });

    it('a city whose sites lack seats is refused naming the city and the numbers; nothing changes', async () => {
      for (const i of [0, 1, 2]) expect((await choose(i, '杭州')).body.success).toBe(true);
      const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'c1' }, bearer(admin));
      expect(r.body.success).toBe(false);
      expect(r.body.msg).toContain('杭州');
      expect(r.body.msg).toContain('3 人');
      expect(r.body.msg).toContain('2 个座位');
      expect(await seatCities()).toEqual([]);
    });

    it('seats each candidate in a site of their city; the rest anywhere', async () => {
      // Changeable before the arrangement.
      expect((await choose(2, '宁波')).body.success).toBe(true);
      expect((await choose(3, '宁波')).body.success).toBe(true);
      const mine = await get(t, `/api/getMySiteCity?examId=${examId}`, bearer(tokens[2]!));
      expect(mine.body.data).toMatchObject({ enabled: true, city: '宁波', arranged: false });
      const r = await post(t, '/api/admin/arrangeSeats', { examId, seed: 'c2' }, bearer(admin));
      expect(r.body.success, r.body.msg).toBe(true);
      const seats = new Map((await seatCities()).map((s) => [s.application_id, s.city]));
      expect(seats.size).toBe(5);
      expect(seats.get(apps[0]!)).toBe('杭州');
      expect(seats.get(apps[1]!)).toBe('杭州');
      expect(seats.get(apps[2]!)).toBe('宁波');
      expect(seats.get(apps[3]!)).toBe('宁波');
      expect(seats.get(apps[4]!)).toBe('温州');
    });

    it('after the arrangement the choice is refused and shown as fixed', async () => {
      const c = await choose(0, '温州');
      expect(c.body.success).toBe(false);
      expect(c.body.msg).toContain('考场已编排');
      const mine = await get(t, `/api/getMySiteCity?examId=${examId}`, bearer(tokens[0]!));
      expect(mine.body.data).toMatchObject({ city: '杭州', arranged: true });
    });

    it('finds seated candidates by name (wildcards taken literally) for moving a seat', async () => {
      const c = await t.db.kysely
        .selectFrom('application as a')
        .innerJoin('candidate as c', 'c.id', 'a.candidate_id')
        .select('c.name')
        .where('a.id', '=', apps[2]!)
        .executeTakeFirstOrThrow();
      const r = await get(t, `/api/admin/findSeatedCandidates?examId=${examId}&q=${encodeURIComponent(c.name)}`, bearer(admin));
      expect(r.body.success, r.body.msg).toBe(true);
      const found = (r.body.data as { applicationId: number; seats: { site: string }[] }[]).find((x) => x.applicationId === apps[2]);
      expect(found?.seats).toEqual([expect.objectContaining({ site: '宁波一中' })]);
      const none = await get(t, `/api/admin/findSeatedCandidates?examId=${examId}&q=${encodeURIComponent('%')}`, bearer(admin));
      expect(none.body.data).toEqual([]);
      const empty = await get(t, `/api/admin/findSeatedCandidates?examId=${examId}&q=`, bearer(admin));
      expect(empty.body.success).toBe(false);
      expect(empty.body.msg).toMatch(/[\u4e00-\u9fa5]/);
    });
  });
}
