import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { CryptoSuiteMismatch, ensureCryptoSuite } from '../src/db/crypto-suite';
import { createAuditMac } from '../src/lib/audit-mac';
import { createDataCipher } from '../src/lib/crypto';
import { rotateDataKey } from '../src/modules/access/accounts/key-rotation';
import { readHead, walkChain } from '../src/modules/platform/audit/chain-verify';
import { resealChains } from '../src/modules/platform/audit/rekey';
import { officeChain } from '../src/modules/platform/audit/repository';
import { DEMO_DUTY_STAFF } from '../src/seed/duty-staff';
import { adminToken, submittedApplication } from './helpers/actors';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer, captcha, get, post, registered, registration } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';
import { bundleServer, startServerProcess } from './helpers/server-process';

const NEW_KEY = Buffer.alloc(32, 9);

/**
 * 国密 as an option (issue 32 item 5): CRYPTO_SUITE=sm encrypts personal data at rest with SM4
 * (SM4-CBC, then HMAC-SM3 over it: this OpenSSL has no SM4-GCM) and keys blind indexes and the
 * audit chain with HMAC-SM3; a database is set up under one suite and refuses to start under the other.
 */
describe('the sm suite, by itself', () => {
  it("is Node's OpenSSL's SM4 and SM3 (the standards' own examples)", () => {
    // GB/T 32907-2016 appendix A.1 and GB/T 32905-2016 appendix A.1.
    const key = Buffer.from('0123456789abcdeffedcba9876543210', 'hex');
    const sm4 = createCipheriv('sm4-ecb', key, null).setAutoPadding(false);
    expect(Buffer.concat([sm4.update(key), sm4.final()]).toString('hex')).toBe('681edf34d206965e86b3e94f536e4246');
    expect(createHash('sm3').update('abc').digest('hex')).toBe('66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0');
  });

  it('round-trips, authenticates before decrypting, and never reads the other suite', () => {
    const sm = createDataCipher(TEST_DATA_KEY, [], 'sm');
    const standard = createDataCipher(TEST_DATA_KEY, [], 'standard');
    const stored = sm.encrypt('110105199805170011');
    expect(stored).toMatch(new RegExp(`^s1\\.${sm.keyId}\\.[A-Za-z0-9_-]+$`));
    expect(sm.decrypt(stored)).toBe('110105199805170011');
    expect(sm.encrypt('110105199805170011')).not.toBe(stored);
    expect(sm.decrypt(sm.encrypt('张三的提示答案'))).toBe('张三的提示答案');
    // One changed bit anywhere (IV, ciphertext, tag) and nothing comes out.
    const raw = Buffer.from(stored.split('.')[2]!, 'base64url');
    for (const at of [0, 20, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[at] = bad[at]! ^ 1;
      expect(() => sm.decrypt(`s1.${sm.keyId}.${bad.toString('base64url')}`)).toThrow(/authenticate/);
    }
    expect(() => standard.decrypt(stored)).toThrow(/written under CRYPTO_SUITE=sm/);
    expect(() => sm.decrypt(standard.encrypt('x'))).toThrow(/written under CRYPTO_SUITE=standard/);
    expect(sm.blindIndex('idno', 'A')).toMatch(/^[0-9a-f]{64}$/);
    expect(sm.blindIndex('idno', 'A')).not.toBe(standard.blindIndex('idno', 'A'));
    expect(sm.keyId).not.toBe(standard.keyId);
    const ring = createDataCipher(NEW_KEY, [TEST_DATA_KEY], 'sm');
    expect(ring.decrypt(stored)).toBe('110105199805170011');
    expect(ring.needsRotation(stored)).toBe(true);
    expect(ring.blindIndexes('idno', 'A')).toEqual([ring.blindIndex('idno', 'A'), sm.blindIndex('idno', 'A')]);
  });

  it('is named in the configuration, standard by default, and nothing else', () => {
    expect(loadConfig({}).cryptoSuite).toBe('standard');
    expect(loadConfig({ CRYPTO_SUITE: 'sm' }).cryptoSuite).toBe('sm');
    expect(() => loadConfig({ CRYPTO_SUITE: 'sm2' })).toThrow(/CRYPTO_SUITE/);
  });
});

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`CRYPTO_SUITE=sm on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { CRYPTO_SUITE: 'sm' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('registration, login, a taken ID number, the hint answer, a staff reveal and an export all work under SM4 and HMAC-SM3', async () => {
      const me = await registered(t, { answer: '国密小学' });
      const row = await t.db.kysely
        .selectFrom('candidate')
        .select(['idno_enc', 'idno_index', 'answer_enc'])
        .where('id', '=', me.userInfo.id)
        .executeTakeFirstOrThrow();
      const sm = createDataCipher(TEST_DATA_KEY, [], 'sm');
      expect(row.idno_enc.startsWith(`s1.${sm.keyId}.`)).toBe(true);
      expect(row.answer_enc.startsWith('s1.')).toBe(true);
      expect(row.idno_index).toBe(sm.blindIndex('idno', me.idno));
      expect(JSON.stringify(row)).not.toContain(me.idno);

      const code = await captcha(t);
      const login = await post(t, '/api/login', { idno: me.idno.toLowerCase(), password: me.password, ...code });
      expect(login.body.success, login.body.msg).toBe(true);
      expect((await get(t, '/api/getUserInfo', bearer(login.body.data.token))).body.data.idno).toBe(me.idno);
      const again = await post(t, '/api/register', { ...registration(me.idno), ...(await captcha(t)) });
      expect(again.body).toMatchObject({ success: false, errorCode: 2001 });
      const answer = await post(t, '/api/revealHintAnswer', { password: me.password }, bearer(me.token));
      expect(answer.body.data.answer).toBe('国密小学');

      const application = await submittedApplication(t, me.token);
      const admin = await adminToken(t);
      const revealed = await post(t, '/api/admin/revealApplication', { id: application.id }, bearer(admin));
      expect(revealed.body.data.idno).toBe(me.idno);
      // The export's worker thread decrypts under the same suite.
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/admin/exportApplications?examId=${application.examId}`,
        headers: bearer(admin),
      });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      expect(book.getWorksheet('报名信息')!.getRow(2).getCell(5).value).toBe(me.idno);
      // The audit chain is HMAC-SM3 too.
      const officeId = (await t.db.kysely.selectFrom('office').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id;
      const head = (await readHead(t.db.kysely, `office:${officeId}`))!;
      expect(
        (await walkChain(t.db.kysely, officeChain(officeId), createAuditMac({ suite: 'sm', current: TEST_DATA_KEY, previous: [] }), head))
          .fault,
      ).toBeNull();
      expect(
        (
          await walkChain(
            t.db.kysely,
            officeChain(officeId),
            createAuditMac({ suite: 'standard', current: TEST_DATA_KEY, previous: [] }),
            head,
          )
        ).fault?.kind,
      ).toBe('unverifiable');
    });

    it('rotates the data key under sm as under standard: old rows served meanwhile, every row and audit record rewritten, the new key alone after', async () => {
      const people = [await registered(t), await registered(t)];
      const ring = createDataCipher(NEW_KEY, [TEST_DATA_KEY], 'sm');
      const during = await buildApp({ ...t.config, previousDataKeys: [TEST_DATA_KEY] }, { db: t.db, dataKey: NEW_KEY });
      try {
        const code = (await during.inject({ method: 'GET', url: '/api/getCode' })).json<{ data: { captchaId: string } }>().data;
        const login = await during.inject({
          method: 'POST',
          url: '/api/login',
          payload: { idno: people[0]!.idno, password: people[0]!.password, captchaId: code.captchaId, captcha: 'zk-test-captcha' },
        });
        expect(login.json<{ success: boolean }>().success).toBe(true);
      } finally {
        await during.close();
      }
      const report = await rotateDataKey(t.db, ring, { batchSize: 2 });
      expect(report.candidates.rewritten).toBeGreaterThanOrEqual(3);
      await resealChains(t.db, createAuditMac({ suite: 'sm', current: NEW_KEY, previous: [TEST_DATA_KEY] }), { batchSize: 2 });
      const only = createDataCipher(NEW_KEY, [], 'sm');
      for (const r of await t.db.kysely.selectFrom('candidate').select(['idno_enc', 'idno_index']).execute()) {
        expect(r.idno_enc.startsWith(`s1.${only.keyId}.`)).toBe(true);
        expect(r.idno_index).toBe(only.blindIndex('idno', only.decrypt(r.idno_enc)));
      }
      const after = await buildApp({ ...t.config, previousDataKeys: [] }, { db: t.db, dataKey: NEW_KEY });
      try {
        for (const p of people) {
          const code = (await after.inject({ method: 'GET', url: '/api/getCode' })).json<{ data: { captchaId: string } }>().data;
          const login = await after.inject({
            method: 'POST',
            url: '/api/login',
            payload: { idno: p.idno, password: p.password, captchaId: code.captchaId, captcha: 'zk-test-captcha' },
          });
          expect(login.json<{ success: boolean }>().success).toBe(true);
        }
        const staff = await after.inject({
          method: 'POST',
          url: '/api/admin/login',
          payload: {
            username: 'auditor',
            password: DEMO_DUTY_STAFF.find((d) => d.username === 'auditor')!.password,
            ...(await captcha(t)),
          },
        });
        const token = staff.json<{ data: { token: string } }>().data.token;
        const state = await after.inject({ method: 'GET', url: '/api/admin/getAuditChainState', headers: bearer(token) });
        expect(state.json<{ data: { status: string } }>().data.status).toBe('intact');
      } finally {
        await after.close();
      }
    });

    it('records the suite at the first start and refuses the other one, naming both', async () => {
      await expect(ensureCryptoSuite(t.db, 'standard')).rejects.toThrow(
        'CRYPTO_SUITE=standard is configured, but this database was set up with CRYPTO_SUITE=sm. A database never mixes suites: start with CRYPTO_SUITE=sm, or use a new database for CRYPTO_SUITE=standard.',
      );
      await expect(ensureCryptoSuite(t.db, 'standard')).rejects.toBeInstanceOf(CryptoSuiteMismatch);
      await expect(ensureCryptoSuite(t.db, 'sm')).resolves.toBeUndefined();
      const recorded = await t.db.kysely
        .selectFrom('deployment_setting')
        .select('value')
        .where('name', '=', 'crypto_suite')
        .executeTakeFirstOrThrow();
      expect(recorded.value).toBe('sm');
    });
  });
}

/** The real server refuses to start on a database of the other suite, and says which is which. */
describe('a suite mismatch at start', () => {
  let server: { entry: string; cleanup(): void };
  beforeAll(async () => {
    server = await bundleServer('suite');
  });
  afterAll(() => server?.cleanup());
  for (const kind of DATABASES)
    it.skipIf(kind.skipped !== null)(
      `exits with the message on ${kind.name}, and starts under the suite the database was set up with`,
      async () => {
        const database = await kind.create();
        const url = database.config.kind === 'sqlite' ? `file:${database.config.filename}` : database.config.connectionString;
        try {
          const first = await startServerProcess(server.entry, { DATABASE_URL: url });
          await first.stop();
          await expect(startServerProcess(server.entry, { DATABASE_URL: url, CRYPTO_SUITE: 'sm' })).rejects.toThrow(
            'CRYPTO_SUITE=sm is configured, but this database was set up with CRYPTO_SUITE=standard',
          );
          const again = await startServerProcess(server.entry, { DATABASE_URL: url, CRYPTO_SUITE: 'standard' });
          await again.stop();
        } finally {
          await database.drop();
        }
      },
      90_000,
    );
});

describe.skipIf(sqlite.skipped !== null)('npm run rotate-data-key under sm', () => {
  it('rotates a SQLite database of the sm suite from the command line, audit chains included', async () => {
    const t = await createTestApp(sqlite, { CRYPTO_SUITE: 'sm' });
    try {
      const p = await registered(t);
      await adminToken(t);
      const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
      const run = (suite: string) =>
        spawnSync(process.execPath, ['scripts/rotate-data-key.mjs'], {
          cwd: path.resolve(__dirname, '../../..'),
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            DATABASE_URL: `file:${file}`,
            DATA_KEY: NEW_KEY.toString('hex'),
            DATA_KEY_PREVIOUS: TEST_DATA_KEY.toString('hex'),
            CRYPTO_SUITE: suite,
          },
        });
      const wrong = run('standard');
      expect(wrong.status).toBe(2);
      expect(wrong.stderr).toContain('this database was set up with CRYPTO_SUITE=sm');
      const done = run('sm');
      expect(done.status, done.stderr + done.stdout).toBe(0);
      expect(done.stdout).toContain('sm suite');
      expect(done.stdout).toMatch(/"auditChains":\[.*"resealed":[1-9]/);
      const row = await t.db.kysely.selectFrom('candidate').select(['idno_enc']).where('id', '=', p.userInfo.id).executeTakeFirstOrThrow();
      expect(createDataCipher(NEW_KEY, [], 'sm').decrypt(row.idno_enc)).toBe(p.idno);
    } finally {
      await t.close();
    }
  }, 60_000);
});
