import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_TEXT, ErrorCode, NOT_FOUND_TEXT, type StaffSecurityRow } from '@zhikaoyun/shared';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStaff, adminToken, auditorToken, securityToken, STAFF_PASSWORD, staffToken } from './helpers/actors';
import { createTestApp, type TestApp } from './helpers/app';
import { bearer, captcha, get, post } from './helpers/candidates';
import { DATABASES } from './helpers/databases';
import { redisProblem, TEST_REDIS_URL } from './helpers/server-process';
import { redisCounters } from '../src/lib/throttle';
import { staffLoginGuard } from '../src/modules/access/staff/login-guard';

/**
 * Separated duties (issue 32 item 3, decision 031) beyond the permission matrix: nobody changes
 * their own role; 安全管理's 解锁 and 结束会话 work and are audited; the auditor reads and
 * exports the log; no code path changes or deletes an audit record.
 */

const REFUSAL = { success: false, errorCode: ErrorCode.Forbidden, msg: ERROR_TEXT[ErrorCode.Forbidden] };
const NEW_PASSWORD = 'Duties-Test-2026';

const SRC = path.join(import.meta.dirname, '..', 'src');
function sources(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [{ file: path.relative(SRC, path.join(dir, e.name)), text: readFileSync(path.join(dir, e.name), 'utf8') }]
        : [],
  );
}

it('no code of the server changes or deletes an audit record (the log only grows)', () => {
  const files = sources(SRC).filter((f) => !f.file.startsWith(path.join('db', 'migrations')));
  const changing = files.filter(({ text }) =>
    /(updateTable|deleteFrom)\(\s*'audit_log'|\b(update|delete\s+from|truncate)\s+(table\s+)?"?audit_log\b/i.test(text),
  );
  // But one: an audited purge of records past their 180 days (npm run purge-audit, decision 032),
  // through the chain of modules/platform/audit, which leaves its own record and an anchor.
  expect(changing.map((f) => f.file)).toEqual([path.join('modules', 'platform', 'audit', 'repository.ts')]);
});

const noRedis = await redisProblem();
describe.skipIf(noRedis !== null)(`the staff sign-in's lock with the counters in Redis${noRedis ? ` (skipped: ${noRedis})` : ''}`, () => {
  it('holds an address back after five failures, says until when, and a release lets every address in at once', async () => {
    const { Redis } = await import('ioredis');
    const redis = new Redis(TEST_REDIS_URL);
    try {
      // A prefix of this run's own: Redis keeps counters between runs. Two guards, as the sign-in and 安全管理 each make one.
      const store = redisCounters(redis, `zky-test-${randomBytes(4).toString('hex')}`);
      const [signIn, security] = [staffLoginGuard(store), staffLoginGuard(store)];
      for (let i = 0; i < 5; i += 1) await signIn.fail(1, 'someone', '10.0.0.1');
      await signIn.fail(1, 'someone', '10.0.0.2');
      await expect(signIn.check(1, 'someone', '10.0.0.1')).rejects.toMatchObject({ httpStatus: 429 });
      await expect(signIn.check(1, 'someone', '10.0.0.2')).resolves.toEqual({ stepUp: false });
      const state = await security.state(1, 'someone');
      expect(state.failures).toBe(6);
      expect(state.lockedUntil).toBeGreaterThan(Date.now() + 14 * 60_000);
      expect(await security.state(1, 'someone-else')).toEqual({ failures: 0, lockedUntil: null });

      await security.release(1, 'someone');
      expect(await security.state(1, 'someone')).toEqual({ failures: 0, lockedUntil: null });
      await expect(signIn.check(1, 'someone', '10.0.0.1')).resolves.toEqual({ stepUp: false });
      // Counting starts afresh: four more are not yet a lock, the fifth is.
      for (let i = 0; i < 4; i += 1) await signIn.fail(1, 'someone', '10.0.0.1');
      await expect(signIn.check(1, 'someone', '10.0.0.1')).resolves.toEqual({ stepUp: false });
      await signIn.fail(1, 'someone', '10.0.0.1');
      await expect(signIn.check(1, 'someone', '10.0.0.1')).rejects.toMatchObject({ httpStatus: 429 });
    } finally {
      redis.disconnect();
    }
  });
});

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`separated duties on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let office: number;
    let admin: string;
    let security: string;
    let auditor: string;

    const staffId = async (username: string) =>
      (await t.db.kysely.selectFrom('staff_user').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
    const auditOf = async (target: string) =>
      (
        await t.db.kysely
          .selectFrom('audit_log')
          .select(['staff_name', 'action', 'detail'])
          .where('target', '=', target)
          .orderBy('id')
          .execute()
      ).map((r) => `${r.staff_name}:${r.action}:${r.detail}`);
    const securityRow = async (username: string) => {
      const list = (await get(t, '/api/admin/getStaffSecurity', bearer(security))).body.data as StaffSecurityRow[];
      return list.find((r) => r.username === username)!;
    };
    const signIn = async (username: string, password: string, ip: string) =>
      post(t, '/api/admin/login', { username, password, ...(await captcha(t)) }, {}, ip);

    beforeAll(async () => {
      t = await createTestApp(kind);
      office = (await get(t, '/api/getWSystem')).body.data.officeId as number;
      admin = await adminToken(t);
      security = await securityToken(t);
      auditor = await auditorToken(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('the demo office has one member of each role, and the console shows each its own label', async () => {
      const rows = await t.db.kysely
        .selectFrom('staff_user')
        .select(['username', 'role'])
        .where('office_id', '=', office)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { username: 'admin', role: 'admin' },
        { username: 'security', role: 'security' },
        { username: 'auditor', role: 'auditor' },
      ]);
      expect((await get(t, '/api/admin/getProfile', bearer(auditor))).body.data).toMatchObject({ username: 'auditor', role: 'auditor' });
    });

    it('an admin creates staff of every role; nobody changes their own role, and only admins manage accounts', async () => {
      for (const role of ['reviewer', 'admin', 'security', 'auditor'] as const) {
        const saved = await post(
          t,
          '/api/admin/saveStaff',
          { username: `duty-${role}`, name: `${role}人员`, role, units: ['某单位'], password: NEW_PASSWORD },
          bearer(admin),
        );
        expect(saved.body.success, saved.body.msg).toBe(true);
      }
      // Units narrow reviewers only; the other roles keep none.
      const units = await t.db.kysely
        .selectFrom('staff_user')
        .select(['role', 'units'])
        .where('username', 'like', 'duty-%')
        .orderBy('id')
        .execute();
      expect(units).toEqual([
        { role: 'reviewer', units: '["某单位"]' },
        { role: 'admin', units: '[]' },
        { role: 'security', units: '[]' },
        { role: 'auditor', units: '[]' },
      ]);

      // The admin cannot grant themselves another role (nor take one away from themselves).
      const me = await staffId('admin');
      const own = await post(
        t,
        '/api/admin/saveStaff',
        { id: me, username: 'admin', name: '系统管理员', role: 'auditor', units: [] },
        bearer(admin),
      );
      expect(own.body).toEqual({ success: false, errorCode: ErrorCode.Forbidden, msg: '不能修改自己的角色' });
      expect((await t.db.kysely.selectFrom('staff_user').select('role').where('id', '=', me).executeTakeFirstOrThrow()).role).toBe('admin');
      // Renaming themselves keeps working.
      const renamed = await post(
        t,
        '/api/admin/saveStaff',
        { id: me, username: 'admin', name: '管理员甲', role: 'admin', units: [] },
        bearer(admin),
      );
      expect(renamed.body.success, renamed.body.msg).toBe(true);

      // Another admin may change it, and that is in the log.
      const second = await staffToken(t, 'duty-admin', NEW_PASSWORD);
      const byOther = await post(
        t,
        '/api/admin/saveStaff',
        { id: await staffId('duty-security'), username: 'duty-security', name: 'security人员', role: 'auditor', units: [] },
        bearer(second),
      );
      expect(byOther.body.success, byOther.body.msg).toBe(true);
      expect(await auditOf(`staff:${await staffId('duty-security')}`)).toEqual([
        '系统管理员:新建人员:duty-security（security）',
        'admin人员:修改人员:duty-security（auditor）',
      ]);

      // The security role and the auditor manage no account, their own included.
      for (const token of [security, auditor]) {
        const id = (await get(t, '/api/admin/getProfile', bearer(token))).body.data.id as number;
        const self = await post(
          t,
          '/api/admin/saveStaff',
          { id, username: 'x-self', name: '自己', role: 'admin', units: [] },
          bearer(token),
        );
        expect(self.body).toEqual(REFUSAL);
        expect((await post(t, '/api/admin/setStaffDisabled', { id: me, disabled: true }, bearer(token))).body).toEqual(REFUSAL);
        expect((await get(t, '/api/admin/getStaffList', bearer(token))).body).toEqual(REFUSAL);
      }
    });

    it('解锁: a staff member locked out by failed sign-ins is unlocked by the security role, and it is audited', async () => {
      await addStaff(t, office, 'lock-me', 'reviewer');
      const id = await staffId('lock-me');
      const ip = '10.32.3.1';
      for (let i = 0; i < 5; i += 1) expect((await signIn('lock-me', 'wrong password', ip)).body.errorCode).toBe(ErrorCode.LoginFailed);
      const locked = await signIn('LOCK-ME', STAFF_PASSWORD, ip);
      expect(locked.res.statusCode).toBe(429);
      expect(locked.body).toMatchObject({
        success: false,
        errorCode: ErrorCode.TooManyRequests,
        msg: expect.stringContaining('登录失败次数过多'),
      });

      const row = await securityRow('lock-me');
      expect(row).toMatchObject({ failures: 5, role: 'reviewer', disabled: false });
      expect(Date.parse(row.lockedUntil!)).toBeGreaterThan(Date.now());
      expect((await securityRow('admin')).lockedUntil).toBeNull();

      // Neither the admin nor the auditor may unlock; the security member may not unlock themselves.
      for (const token of [admin, auditor]) expect((await post(t, '/api/admin/unlockStaff', { id }, bearer(token))).body).toEqual(REFUSAL);
      const self = await post(t, '/api/admin/unlockStaff', { id: await staffId('security') }, bearer(security));
      expect(self.body).toEqual({ success: false, errorCode: ErrorCode.Forbidden, msg: '不能对自己的账号执行此操作' });
      expect((await post(t, '/api/admin/unlockStaff', { id: 99_999_999 }, bearer(security))).body).toEqual({
        success: false,
        errorCode: ErrorCode.NotFound,
        msg: NOT_FOUND_TEXT.staff,
      });
      expect((await signIn('lock-me', STAFF_PASSWORD, ip)).res.statusCode).toBe(429);

      const unlocked = await post(t, '/api/admin/unlockStaff', { id }, bearer(security));
      expect(unlocked.body).toEqual({ success: true, data: null });
      expect(await securityRow('lock-me')).toMatchObject({ failures: 0, lockedUntil: null });
      expect(await auditOf(`staff:${id}`)).toContain('安全员:解锁人员:lock-me，此前登录失败 5 次，已锁定');
      // The same address gets in at once, and fails count from nought again.
      const back = await signIn('lock-me', STAFF_PASSWORD, ip);
      expect(back.body.success, back.body.msg).toBe(true);
      expect((await signIn('lock-me', 'wrong password', ip)).body.errorCode).toBe(ErrorCode.LoginFailed);
      expect((await securityRow('lock-me')).failures).toBe(1);
    });

    it('结束会话: the staff member’s session ends at once, and it is audited', async () => {
      await addStaff(t, office, 'end-me', 'admin');
      const id = await staffId('end-me');
      const first = await staffToken(t, 'end-me');
      // One session per member (decision 030): the second sign-in already ended the first.
      const second = await staffToken(t, 'end-me');
      expect((await get(t, '/api/admin/getProfile', bearer(first))).body.errorCode).toBe(ErrorCode.Unauthorized);
      expect((await get(t, '/api/admin/getProfile', bearer(second))).body.success).toBe(true);
      expect((await securityRow('end-me')).sessions).toBe(1);
      expect((await securityRow('end-me')).lastSeenAt).not.toBeNull();

      for (const token of [admin, auditor])
        expect((await post(t, '/api/admin/endStaffSessions', { id }, bearer(token))).body).toEqual(REFUSAL);
      const self = await post(t, '/api/admin/endStaffSessions', { id: await staffId('security') }, bearer(security));
      expect(self.body).toEqual({ success: false, errorCode: ErrorCode.Forbidden, msg: '不能对自己的账号执行此操作' });

      const ended = await post(t, '/api/admin/endStaffSessions', { id }, bearer(security));
      expect(ended.body).toEqual({ success: true, data: null });
      expect((await get(t, '/api/admin/getProfile', bearer(second))).body.errorCode).toBe(ErrorCode.Unauthorized);
      expect((await securityRow('end-me')).sessions).toBe(0);
      expect(await auditOf(`staff:${id}`)).toContain('安全员:结束人员会话:end-me');
      // Their next sign-in works as ever; the security member's own session went on.
      expect((await get(t, '/api/admin/getProfile', bearer(await staffToken(t, 'end-me')))).body.success).toBe(true);
      expect((await get(t, '/api/admin/getProfile', bearer(security))).body.success).toBe(true);
    });

    it('the auditor reads and exports the audit log; nobody else does', async () => {
      const page = await get(t, '/api/admin/getAuditLog?pageSize=100', bearer(auditor));
      expect(page.body.success).toBe(true);
      const actions = (page.body.data.list as { action: string }[]).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(['解锁人员', '结束人员会话', '新建人员', '登录']));
      for (const token of [admin, security]) {
        expect((await get(t, '/api/admin/getAuditLog', bearer(token))).body).toEqual(REFUSAL);
        expect((await get(t, '/api/admin/exportAuditLog', bearer(token))).body).toEqual(REFUSAL);
      }

      const res = await t.app.inject({ method: 'GET', url: '/api/admin/exportAuditLog', headers: bearer(auditor) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.headers['content-disposition']).toContain(encodeURIComponent('审计日志'));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows: string[][] = [];
      book.getWorksheet('审计日志')!.eachRow((row) => {
        rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v as string | number))));
      });
      expect(rows[0]).toEqual(['编号', '序号', '时间', '人员', '操作', '对象', '对象编号', '说明', '来源地址']);
      // Every record, newest first, the export itself on top; times in the office's zone.
      const total = Number(
        (
          await t.db.kysely
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('office_id', '=', office)
            .executeTakeFirstOrThrow()
        ).n,
      );
      expect(rows).toHaveLength(total + 1);
      expect(rows[1]!.slice(3, 5)).toEqual(['审计员', '导出审计日志']);
      expect(rows[1]![2]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // Each record's place in the office's chain: the newest is the last one.
      expect(Number(rows[1]![1])).toBe(total);
      expect(rows.some((r) => r[4] === '解锁人员' && r[5] === '人员 lock-me（lock-me姓名）')).toBe(true);
      const ids = rows.slice(1).map((r) => Number(r[0]));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
    });
  });
}
