// Fills a database with a provincial exam through the product's own code: its migrations, demo
// office, AES-GCM cipher and blind index (createDataCipher), argon2id hashing (hashPassword) and the
// shared ID-number rules; then rows in bulk (prepared statements in large transactions on SQLite,
// unnest() batches on PostgreSQL), which the server reads back like any others. Bundled and run by
// bench/scale.mjs.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { birthdayFromIdno, idnoCheckChar, OPEN_REQUIREMENTS, sexFromIdno } from '@zhikaoyun/shared';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { seedDemo } from '../apps/server/src/seed/demo';
import { COMPLETE_FORM } from '../apps/server/src/seed/fixtures';
import { createAuditMac } from '../apps/server/src/lib/audit-mac';
import { createDataCipher } from '../apps/server/src/lib/crypto';
import { officeChain } from '../apps/server/src/modules/platform/audit/repository';
import { hashPassword } from '../apps/server/src/lib/password';

export interface SeedOptions {
  databaseUrl: string;
  /** Applications (and candidates) to create. */
  n: number;
  /** Candidates without an application, to save and submit during the bench. */
  fresh: number;
  positions: number;
  dataKey: Buffer;
  adminPassword: string;
  candidatePassword: string;
}

export interface SeedResult {
  officeId: number;
  examId: number;
  /** ID numbers of candidates with an application (a few) and of the fresh ones. */
  sampleIdnos: string[];
  freshIdnos: string[];
  names: string[];
  popularPositionId: number;
  sampleUnit: string;
  seconds: number;
}

const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN =
  '伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬斌宇浩凯健俊帆帅旭宁龙林欣佳雪婷琳晨阳鑫瑞博文轩涵琪怡梓萱子豪宏志海波晓东晶颖慧建国建华';
const TITLES = [
  '初中语文教师',
  '小学数学教师',
  '高中英语教师',
  '财务会计',
  '综合文字',
  '行政辅助',
  '信息技术',
  '临床医生',
  '护理',
  '法律事务',
  '工程管理',
  '统计分析',
];
const STATUS_PLAN: [string, number][] = [
  ['submitted', 0.65],
  ['approved', 0.25],
  ['rejected', 0.05],
  ['draft', 0.05],
];
const DAY = 86_400_000;

/** A deterministic pseudo-random sequence (so every run seeds the same exam). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The i-th candidate's ID number: valid (GB 11643 check character), born 1980–2003, unique per i. */
export function idnoOf(i: number): string {
  const region = 110101 + (i % 9000);
  const birth = new Date(Date.UTC(1980, 0, 1) + (Math.floor(i / 9000) % 8000) * DAY).toISOString().slice(0, 10).replace(/-/g, '');
  const order = String(Math.floor(i / ((9000 * 8000) / 1000)) % 1000).padStart(3, '0');
  // Region, birthday and order together are unique for i below 9000 × 8000 × … (far beyond 1M):
  // the order digits carry the high part of i once region and birthday have cycled.
  const first17 = `${region}${birth}${order}`;
  return first17 + idnoCheckChar(first17);
}

export async function seedScale(o: SeedOptions): Promise<SeedResult> {
  const t0 = performance.now();
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: o.databaseUrl }, process.cwd());
  const db = openDatabase(config.database);
  await migrateToLatest(db);
  await seedDemo(db, { adminPassword: o.adminPassword });
  const office = await db.kysely.selectFrom('office').select('id').orderBy('id').executeTakeFirstOrThrow();
  const exam = await db.kysely.selectFrom('exam').select('id').where('office_id', '=', office.id).orderBy('id').executeTakeFirstOrThrow();
  await db.destroy();
  const cipher = createDataCipher(o.dataKey);
  // The staff's decisions and views, chained as the audit service chains them (one office's chain).
  const auditMac = createAuditMac({ suite: 'standard', current: o.dataKey, previous: [] });
  const chain = officeChain(office.id);
  let auditSeq = 0;
  let auditPrev = '';
  const chained = (action: string, target: string, at: string) => {
    const row = { office_id: office.id, staff_id: 1, staff_name: '管理员', action, target, detail: '', ip: '127.0.0.1', at };
    auditSeq += 1;
    auditPrev = auditMac.sign(auditPrev, chain.contentOf(row, auditSeq));
    return { action, target, at, seq: auditSeq, mac: auditPrev };
  };
  const chainHead = `INSERT INTO audit_chain (chain, seq, mac) VALUES ($1, $2, $3) ON CONFLICT (chain) DO UPDATE SET seq = excluded.seq, mac = excluded.mac`;
  const passwordHash = await hashPassword(o.candidatePassword);
  const random = rng(20260301);
  const now = new Date().toISOString();

  const positions = Array.from({ length: o.positions }, (_, i) => ({
    code: `S${String(i + 1).padStart(5, '0')}`,
    name: `${TITLES[i % TITLES.length]}${Math.floor(i / TITLES.length) + 1}`,
    unit: `第${Math.floor(i / 10) + 1}事业单位`,
    headcount: 1 + (i % 5),
  }));
  const names = Array.from({ length: 64 }, (_, i) => `${SURNAMES[i % SURNAMES.length]}${GIVEN[(i * 7) % GIVEN.length]}`);
  const start = Date.parse('2026-03-01T01:00:00Z');
  const { pledge: _pledge, ...stored } = COMPLETE_FORM;
  const form = JSON.stringify(stored);
  const requirements = JSON.stringify(OPEN_REQUIREMENTS);

  function candidateRow(i: number) {
    const idno = idnoOf(i);
    const name =
      i < names.length * 4
        ? names[i % names.length]!
        : `${SURNAMES[Math.floor(random() * SURNAMES.length)]}${GIVEN[Math.floor(random() * GIVEN.length)]}${random() < 0.5 ? GIVEN[Math.floor(random() * GIVEN.length)] : ''}`;
    return {
      idno,
      idno_index: cipher.blindIndex('idno', idno),
      idno_enc: cipher.encrypt(idno),
      name,
      birthday: birthdayFromIdno(idno) ?? '1990-01-01',
      sex: sexFromIdno(idno) ?? '男',
      mobile: `138${String(i).padStart(8, '0')}`,
    };
  }
  function applicationOf(i: number, positionIds: number[]) {
    const r = random();
    let acc = 0;
    let status = 'submitted';
    for (const [s, p] of STATUS_PLAN) {
      acc += p;
      if (r < acc) {
        status = s;
        break;
      }
    }
    // Three in ten on a hundred popular positions; the rest spread over all of them.
    const positionId = random() < 0.3 ? positionIds[Math.floor(random() * 100)]! : positionIds[Math.floor(random() * positionIds.length)]!;
    const submitted = status === 'draft' ? null : new Date(start + Math.floor(random() * 20 * DAY)).toISOString();
    return { status, positionId, submitted };
  }

  const sampleIdnos: string[] = [];
  const freshIdnos: string[] = [];
  for (let i = 0; i < Math.min(o.n, 50); i++) sampleIdnos.push(idnoOf(i * 7));
  for (let i = 0; i < o.fresh; i++) freshIdnos.push(idnoOf(o.n + i));

  if (config.database.kind === 'sqlite') {
    const s = new SQLite(config.database.filename);
    s.pragma('journal_mode = WAL');
    s.pragma('synchronous = OFF');
    const insPos = s.prepare(
      `INSERT INTO position (office_id, exam_id, code, name, unit, headcount, description, requirements, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?)`,
    );
    const positionIds = s.transaction(() =>
      positions.map((p) =>
        Number(insPos.run(office.id, exam.id, p.code, p.name, p.unit, p.headcount, requirements, now, now).lastInsertRowid),
      ),
    )();
    const insCand = s.prepare(
      `INSERT INTO candidate (office_id, idno_index, idno_enc, name, birthday, sex, password_hash, mobile, email, question, answer_enc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', '问题？', ?, ?, ?)`,
    );
    const insApp = s.prepare(
      `INSERT INTO application (office_id, exam_id, candidate_id, position_id, status, form, reason, submitted_at, reviewed_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insHist = s.prepare(
      `INSERT INTO application_history (application_id, status, reason, actor, actor_id, at) VALUES (?, ?, '', ?, ?, ?)`,
    );
    const insAudit = s.prepare(
      `INSERT INTO audit_log (office_id, staff_id, staff_name, action, target, detail, ip, at, seq, mac, mac_key) VALUES (?, 1, '管理员', ?, ?, '', '127.0.0.1', ?, ?, ?, ?)`,
    );
    const audit = (action: string, target: string, at: string) => {
      const r = chained(action, target, at);
      insAudit.run(office.id, r.action, r.target, r.at, r.seq, r.mac, auditMac.keyId);
    };
    const answer = cipher.encrypt('答案');
    const batch = s.transaction((from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const c = candidateRow(i);
        const cid = Number(
          insCand.run(office.id, c.idno_index, c.idno_enc, c.name, c.birthday, c.sex, passwordHash, c.mobile, answer, now, now)
            .lastInsertRowid,
        );
        if (i >= o.n) continue;
        const a = applicationOf(i, positionIds);
        const reviewed = a.status === 'approved' || a.status === 'rejected' ? a.submitted : null;
        const aid = Number(
          insApp.run(
            office.id,
            exam.id,
            cid,
            a.positionId,
            a.status,
            form,
            a.status === 'rejected' ? '材料不全' : '',
            a.submitted,
            reviewed,
            now,
            a.submitted ?? now,
          ).lastInsertRowid,
        );
        insHist.run(aid, 'draft', 'candidate', cid, now);
        if (a.submitted) insHist.run(aid, 'submitted', 'candidate', cid, a.submitted);
        if (reviewed) {
          insHist.run(aid, a.status, 'staff', 1, reviewed);
          audit(a.status === 'approved' ? '审核通过' : '审核不通过', `application:${aid}`, reviewed);
        }
        if (i % 3 === 0) audit('查看报名', `application:${aid}`, now);
      }
    });
    const total = o.n + o.fresh;
    for (let i = 0; i < total; i += 20_000) batch(i, Math.min(total, i + 20_000));
    s.pragma('wal_checkpoint(TRUNCATE)');
    s.prepare(chainHead.replace(/\$\d/g, '?')).run(chain.chain, auditSeq, auditPrev);
    s.close();
    return {
      officeId: office.id,
      examId: exam.id,
      sampleIdnos,
      freshIdnos,
      names,
      popularPositionId: positionIds[0]!,
      sampleUnit: positions[500 % positions.length]!.unit,
      seconds: (performance.now() - t0) / 1000,
    };
  }

  const client = new pg.Client({ connectionString: config.database.connectionString });
  await client.connect();
  const positionIds: number[] = [];
  for (const p of positions) {
    const r = await client.query<{ id: number }>(
      `INSERT INTO position (office_id, exam_id, code, name, unit, headcount, description, requirements, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, '', $7, $8, $8) RETURNING id`,
      [office.id, exam.id, p.code, p.name, p.unit, p.headcount, requirements, now],
    );
    positionIds.push(r.rows[0]!.id);
  }
  const answer = cipher.encrypt('答案');
  const total = o.n + o.fresh;
  for (let from = 0; from < total; from += 10_000) {
    const to = Math.min(total, from + 10_000);
    const cands = Array.from({ length: to - from }, (_, j) => candidateRow(from + j));
    const ids = await client.query<{ id: number }>(
      `INSERT INTO candidate (office_id, idno_index, idno_enc, name, birthday, sex, password_hash, mobile, email, question, answer_enc, created_at, updated_at)
       SELECT $1::int, x.idx, x.enc, x.name, x.birthday, x.sex, $2::text, x.mobile, '', '问题？', $3::text, $4::text, $4::text
       FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[]) WITH ORDINALITY AS x(idx, enc, name, birthday, sex, mobile, ord)
       ORDER BY x.ord RETURNING id`,
      [
        office.id,
        passwordHash,
        answer,
        now,
        cands.map((c) => c.idno_index),
        cands.map((c) => c.idno_enc),
        cands.map((c) => c.name),
        cands.map((c) => c.birthday),
        cands.map((c) => c.sex),
        cands.map((c) => c.mobile),
      ],
    );
    const rows = ids.rows.map((r, j) => ({ cid: r.id, i: from + j })).filter((r) => r.i < o.n);
    if (rows.length === 0) continue;
    const apps = rows.map((r) => ({ ...r, ...applicationOf(r.i, positionIds) }));
    const appIds = await client.query<{ id: number }>(
      `INSERT INTO application (office_id, exam_id, candidate_id, position_id, status, form, reason, submitted_at, reviewed_at, created_at, updated_at)
       SELECT $1::int, $2::int, x.cid, x.pid, x.status, $3::text, CASE WHEN x.status = 'rejected' THEN '材料不全' ELSE '' END, x.sub,
              CASE WHEN x.status IN ('approved', 'rejected') THEN x.sub END, $4::text, coalesce(x.sub, $4::text)
       FROM unnest($5::int[], $6::int[], $7::text[], $8::text[]) WITH ORDINALITY AS x(cid, pid, status, sub, ord) ORDER BY x.ord RETURNING id`,
      [
        office.id,
        exam.id,
        form,
        now,
        apps.map((a) => a.cid),
        apps.map((a) => a.positionId),
        apps.map((a) => a.status),
        apps.map((a) => a.submitted),
      ],
    );
    const aid = appIds.rows.map((r) => r.id);
    await client.query(
      `INSERT INTO application_history (application_id, status, reason, actor, actor_id, at)
       SELECT x.aid, 'draft', '', 'candidate', x.cid, $1::text FROM unnest($2::int[], $3::int[]) AS x(aid, cid)
       UNION ALL SELECT x.aid, 'submitted', '', 'candidate', x.cid, x.sub FROM unnest($2::int[], $3::int[], $4::text[]) AS x(aid, cid, sub) WHERE x.sub IS NOT NULL
       UNION ALL SELECT x.aid, x.status, '', 'staff', 1, x.sub FROM unnest($2::int[], $5::text[], $4::text[]) AS x(aid, status, sub) WHERE x.status IN ('approved', 'rejected')`,
      [now, aid, apps.map((a) => a.cid), apps.map((a) => a.submitted), apps.map((a) => a.status)],
    );
    const entries = [
      ...apps.flatMap((a, j) =>
        a.status === 'approved' || a.status === 'rejected'
          ? [chained(a.status === 'approved' ? '审核通过' : '审核不通过', `application:${aid[j]}`, a.submitted!)]
          : [],
      ),
      ...aid.flatMap((id, j) => ((j + 1) % 3 === 0 ? [chained('查看报名', `application:${id}`, now)] : [])),
    ];
    await client.query(
      `INSERT INTO audit_log (office_id, staff_id, staff_name, action, target, detail, ip, at, seq, mac, mac_key)
       SELECT $1::int, 1, '管理员', x.action, x.target, '', '127.0.0.1', x.at, x.seq, x.mac, $2::text
       FROM unnest($3::text[], $4::text[], $5::text[], $6::int[], $7::text[]) AS x(action, target, at, seq, mac)`,
      [
        office.id,
        auditMac.keyId,
        entries.map((e) => e.action),
        entries.map((e) => e.target),
        entries.map((e) => e.at),
        entries.map((e) => e.seq),
        entries.map((e) => e.mac),
      ],
    );
  }
  await client.query(chainHead, [chain.chain, auditSeq, auditPrev]);
  await client.query('VACUUM ANALYZE');
  await client.end();
  return {
    officeId: office.id,
    examId: exam.id,
    sampleIdnos,
    freshIdnos,
    names,
    popularPositionId: positionIds[0]!,
    sampleUnit: positions[500 % positions.length]!.unit,
    seconds: (performance.now() - t0) / 1000,
  };
}
