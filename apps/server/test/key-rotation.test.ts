import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { createDataCipher } from '../src/lib/crypto';
import { rotateDataKey } from '../src/modules/access/accounts/key-rotation';
import { createTestApp, TEST_DATA_KEY, type TestApp } from './helpers/app';
import { bearer, captcha, post, registered } from './helpers/candidates';
import { DATABASES, sqlite } from './helpers/databases';

const NEW_KEY = Buffer.alloc(32, 9);
const OTHER_KEY = Buffer.alloc(32, 3);

/** The same app on the same database, started with other keys, as a redeploy would. */
async function appWith(t: TestApp, dataKey: Buffer, previous: Buffer[]) {
  const app = await buildApp({ ...t.config, previousDataKeys: previous }, { db: t.db, dataKey });
  await app.ready();
  return app;
}

async function login(app: Awaited<ReturnType<typeof appWith>>, idno: string, password: string) {
  const code = (await app.inject({ method: 'GET', url: '/api/getCode' })).json<{ data: { captchaId: string } }>().data;
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { idno, password, captchaId: code.captchaId, captcha: 'zk-test-captcha' },
  });
  return res.json<{ success: boolean; msg?: string; data?: { token: string; userInfo: { idno: string; answer: string } } }>();
}

describe('data cipher key ring', () => {
  it('decrypts what a previous key wrote, in both formats, and refuses without it', () => {
    const old = createDataCipher(TEST_DATA_KEY);
    const ring = createDataCipher(NEW_KEY, [TEST_DATA_KEY]);
    const stored = old.encrypt('110105199805170011');
    const legacy = `v1.${stored.split('.')[2]}`;
    expect(stored.startsWith(`v2.${old.keyId}.`)).toBe(true);
    expect(ring.decrypt(stored)).toBe('110105199805170011');
    expect(ring.decrypt(legacy)).toBe('110105199805170011');
    expect(ring.needsRotation(stored)).toBe(true);
    expect(ring.needsRotation(ring.encrypt('x'))).toBe(false);
    expect(ring.blindIndexes('idno', 'A')).toEqual([ring.blindIndex('idno', 'A'), old.blindIndex('idno', 'A')]);
    expect(() => createDataCipher(NEW_KEY).decrypt(stored)).toThrow(/DATA_KEY_PREVIOUS/);
    expect(() => createDataCipher(OTHER_KEY).decrypt(legacy)).toThrow(/DATA_KEY_PREVIOUS/);
  });
});

for (const kind of DATABASES) {
  describe.skipIf(kind.skipped !== null)(`key rotation on ${kind.name}${kind.skipped ? ` (skipped: ${kind.skipped})` : ''}`, () => {
    let t: TestApp;
    let people: Awaited<ReturnType<typeof registered>>[];
    beforeAll(async () => {
      t = await createTestApp(kind);
      people = [];
      for (let i = 0; i < 5; i++) people.push(await registered(t, { answer: `答案${i}` }));
      // One row as the first release wrote it (no key id), and one appeal with an ID number.
      const first = await t.db.kysely
        .selectFrom('candidate')
        .select(['id', 'idno_enc'])
        .where('id', '=', people[0]!.userInfo.id)
        .executeTakeFirstOrThrow();
      await t.db.kysely
        .updateTable('candidate')
        .set({ idno_enc: `v1.${first.idno_enc.split('.')[2]}` })
        .where('id', '=', first.id)
        .execute();
      const appeal = await post(t, '/api/submitAppeal', {
        name: '张小明',
        idno: people[1]!.idno,
        mobile: '13912345678',
        description: '我的身份证号被他人注册',
        ...(await captcha(t)),
      });
      expect(appeal.body.success, appeal.body.msg).toBe(true);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('serves rows of the old key while the new key is current (before and during rotation)', async () => {
      const app = await appWith(t, NEW_KEY, [TEST_DATA_KEY]);
      try {
        const body = await login(app, people[0]!.idno, people[0]!.password);
        expect(body.success, body.msg).toBe(true);
        expect(body.data?.userInfo.idno).toBe(people[0]!.idno);
        // The hint answer the old key encrypted, shown after the password.
        const shown = await app.inject({
          method: 'POST',
          url: '/api/revealHintAnswer',
          headers: { authorization: `Bearer ${body.data?.token ?? ''}` },
          payload: { password: people[0]!.password },
        });
        expect(shown.json<{ data?: { answer: string } }>().data?.answer).toBe('答案0');
        // A taken ID number stays taken although its stored index is the old key's.
        const again = await app.inject({
          method: 'POST',
          url: '/api/register',
          payload: { ...(await registeredPayload(app, people[2]!.idno)) },
        });
        expect(again.json<{ success: boolean; errorCode: number }>()).toMatchObject({ success: false, errorCode: 2001 });
      } finally {
        await app.close();
      }
    });

    it('rewrites every row in batches, resumes after an interruption and is idempotent', async () => {
      const ring = createDataCipher(NEW_KEY, [TEST_DATA_KEY]);
      let batches = 0;
      await expect(
        rotateDataKey(t.db, ring, {
          batchSize: 2,
          onBatch: () => {
            batches += 1;
            if (batches === 1) throw new Error('power cut');
          },
        }),
      ).rejects.toThrow('power cut');
      const half = await t.db.kysely.selectFrom('candidate').select(['idno_enc']).execute();
      expect(half.filter((r) => !ring.needsRotation(r.idno_enc))).toHaveLength(2);

      const report = await rotateDataKey(t.db, ring, { batchSize: 2 });
      expect(report.candidates).toEqual({ scanned: 5, rewritten: 3, conflicts: 0 });
      expect(report.appeals).toEqual({ scanned: 1, rewritten: 1, conflicts: 0 });
      const again = await rotateDataKey(t.db, ring, { batchSize: 2 });
      expect(again.candidates.rewritten + again.appeals.rewritten).toBe(0);

      // Only the new key is needed now: every value decrypts and every index is the new key's.
      const only = createDataCipher(NEW_KEY);
      const rows = await t.db.kysely.selectFrom('candidate').select(['idno_enc', 'idno_index', 'answer_enc']).execute();
      for (const r of rows) {
        const idno = only.decrypt(r.idno_enc);
        expect(r.idno_index).toBe(only.blindIndex('idno', idno));
        expect(only.decrypt(r.answer_enc)).toMatch(/^答案\d$/);
      }
      const appeal = await t.db.kysely.selectFrom('appeal').select(['idno_enc', 'idno_index']).executeTakeFirstOrThrow();
      expect(only.decrypt(appeal.idno_enc)).toBe(people[1]!.idno);
      expect(appeal.idno_index).toBe(only.blindIndex('idno', people[1]!.idno));
    });

    it('after rotation the app runs on the new key alone', async () => {
      const app = await appWith(t, NEW_KEY, []);
      try {
        for (const p of people) {
          const body = await login(app, p.idno, p.password);
          expect(body.success, body.msg).toBe(true);
          const me = await app.inject({ method: 'GET', url: '/api/getUserInfo', headers: bearer(body.data!.token) });
          expect(me.json<{ data: { idno: string } }>().data.idno).toBe(p.idno);
        }
      } finally {
        await app.close();
      }
      // The old key alone no longer opens anything: the data really moved.
      const row = await t.db.kysely
        .selectFrom('candidate')
        .select(['idno_enc'])
        .where('id', '=', people[0]!.userInfo.id)
        .executeTakeFirstOrThrow();
      expect(() => createDataCipher(TEST_DATA_KEY).decrypt(row.idno_enc)).toThrow();
    });

    it('stops with a clear message when an old row cannot be read with the configured keys', async () => {
      const stranger = createDataCipher(OTHER_KEY);
      await t.db.kysely
        .updateTable('candidate')
        .set({ answer_enc: stranger.encrypt('x') })
        .where('id', '=', people[4]!.userInfo.id)
        .execute();
      await expect(rotateDataKey(t.db, createDataCipher(NEW_KEY, [TEST_DATA_KEY]))).rejects.toThrow(/DATA_KEY_PREVIOUS/);
    });
  });
}

async function registeredPayload(app: Awaited<ReturnType<typeof appWith>>, idno: string) {
  const code = (await app.inject({ method: 'GET', url: '/api/getCode' })).json<{ data: { captchaId: string } }>().data;
  return {
    idno,
    name: '李四',
    password: 'another long password',
    mobile: '13800000000',
    email: '',
    question: '我的小学校名？',
    answer: '某小学',
    agree: true,
    consent: true,
    captchaId: code.captchaId,
    captcha: 'zk-test-captcha',
  };
}

describe.skipIf(sqlite.skipped !== null)('npm run rotate-data-key', () => {
  it('rotates a SQLite database from the command line', async () => {
    const t = await createTestApp(sqlite);
    try {
      const p = await registered(t);
      const file = t.config.database.kind === 'sqlite' ? t.config.database.filename : '';
      const root = path.resolve(__dirname, '../../..');
      const run = spawnSync(process.execPath, ['scripts/rotate-data-key.mjs'], {
        cwd: root,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: `file:${file}`,
          DATA_KEY: NEW_KEY.toString('hex'),
          DATA_KEY_PREVIOUS: TEST_DATA_KEY.toString('hex'),
          LOG_LEVEL: 'silent',
        },
      });
      expect(run.status, run.stderr + run.stdout).toBe(0);
      expect(run.stdout).toContain('"rewritten":1');
      const row = await t.db.kysely.selectFrom('candidate').select(['idno_enc']).executeTakeFirstOrThrow();
      expect(createDataCipher(NEW_KEY).decrypt(row.idno_enc)).toBe(p.idno);
      const missing = spawnSync(process.execPath, ['scripts/rotate-data-key.mjs'], {
        cwd: root,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, DATABASE_URL: `file:${file}`, DATA_KEY: OTHER_KEY.toString('hex') },
      });
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('DATA_KEY_PREVIOUS');
    } finally {
      await t.close();
    }
  }, 60_000);
});
