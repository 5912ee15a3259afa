import { randomBytes } from 'node:crypto';
import { WAIVER_CATEGORY_LABEL, zonedDay, type WaiverCategory } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { DB } from '../db/schema';
import { DEMO_POSITIONS } from './data';
import { demoStage, type DemoStageOptions } from './writes';

const DAY = 86_400_000;

export const CLOSEOUT_DEMO_EXAM = '示范市 2026 年度事业单位招聘（开考比例核定阶段）';

/**
 * How each demo candidate stands: confirmed by a sandbox payment, or by an approved fee waiver;
 * or (`pending`) with a waiver asked in time and not yet decided, so the application lapsed at
 * the deadline and staff approving it confirms it still.
 */
type Standing = 'paid' | 'waived' | 'pending';

/**
 * The positions and their candidates, chosen so that an opening ratio of 3 proposes each of the
 * three decisions: 阅读推广 (1 post, 3 confirmed) keeps, 财务会计 (2 posts, 3 confirmed) is
 * reduced to 1, 审计 (1 post, 2 confirmed) is cancelled. The 审计 candidates qualify for both
 * other positions, so either may switch; both paid, so either may take a refund instead.
 */
export const CLOSEOUT_DEMO_CANDIDATES: {
  name: string;
  first17: string;
  mobile: string;
  position: '阅读推广' | '财务会计' | '审计';
  standing: Standing;
}[] = [
  { name: '宋佳', first17: '33010619960217302', mobile: '13900004001', position: '审计', standing: 'paid' },
  { name: '唐宁', first17: '33010619970726313', mobile: '13900004002', position: '审计', standing: 'paid' },
  { name: '方圆', first17: '33010619980309324', mobile: '13900004003', position: '阅读推广', standing: 'paid' },
  { name: '曹阳', first17: '33010619961021335', mobile: '13900004004', position: '阅读推广', standing: 'paid' },
  { name: '彭丽', first17: '33010619990104346', mobile: '13900004005', position: '阅读推广', standing: 'waived' },
  { name: '马超', first17: '33010619970315357', mobile: '13900004006', position: '财务会计', standing: 'paid' },
  { name: '胡静', first17: '33010619980628368', mobile: '13900004007', position: '财务会计', standing: 'paid' },
  { name: '罗斌', first17: '33010619961203379', mobile: '13900004008', position: '财务会计', standing: 'waived' },
  { name: '梁爽', first17: '33010619990512380', mobile: '13900004009', position: '财务会计', standing: 'pending' },
];

const FEE = 5000;
const WAIVER: WaiverCategory = 'dibao';

/** Every demo candidate has an accounting degree and is a party member: 审计 asks both, the others less. */
const FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江财经大学',
  major: '会计学',
  graduationDate: '2020-06',
  workYears: 3,
  politicalStatus: '中共党员',
  address: '杭州市西湖区',
  pledge: true,
};

/** A stand-in for a scanned certificate (a page with a red seal), so the waiver queue's proof opens. */
function demoProof(): Promise<Buffer> {
  const lines = Array.from(
    { length: 9 },
    (_, i) => `<rect x="60" y="${120 + i * 42}" width="${i % 3 === 2 ? 260 : 420}" height="12" fill="#c9ced6"/>`,
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="540" height="720" viewBox="0 0 540 720">
<rect width="540" height="720" fill="#fbfaf6"/>
<rect x="170" y="50" width="200" height="22" fill="#6b7280"/>
${lines.join('\n')}
<circle cx="400" cy="600" r="70" fill="none" stroke="#d33" stroke-width="8"/>
<path d="M400 548 L414 590 L458 590 L422 616 L436 658 L400 632 L364 658 L378 616 L342 590 L386 590 Z" fill="#d33"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Order numbers as the product makes them: ZK + UTC time to the second + 10 random hex digits. */
const orderNo = (at: string) => `ZK${at.replace(/\D/g, '').slice(0, 14)}${randomBytes(5).toString('hex').toUpperCase()}`;

/**
 * An exam past its confirmation deadline and inside its switch window, with an opening ratio
 * of 3 and confirmed candidates (paid in the sandbox, or fee waived) whose counts make 开考核定
 * propose keep, reduce and cancel; and one waiver asked before the deadline, still pending. So a
 * fresh `npm start` lets staff apply the close-out, and a candidate of the cancelled position
 * switch (改报) or take a refund. Written as the product writes them: the application's history
 * step by step, the order paid with its trade at the sandbox (paid, its notify acknowledged), so
 * a refund goes through the sandbox like any other. Candidates sign in with their ID numbers and
 * DEMO_CANDIDATE_PASSWORD.
 */
export async function seedCloseoutDemo(trx: Kysely<DB>, opts: DemoStageOptions): Promise<void> {
  const stage = await demoStage(trx, opts);
  const { at } = stage;
  const deadline = at(-1);
  const examId = await stage.exam({
    name: CLOSEOUT_DEMO_EXAM,
    registration_start: at(-40),
    registration_end: at(-30),
    review_start: at(-40),
    review_end: at(-25),
    confirmation_start: at(-20),
    confirmation_end: deadline,
    fee: FEE,
    opening_ratio: 3,
    waiver_categories: JSON.stringify(['dibao', 'tekun']),
    // Open from the deadline on: a candidate of a position cancelled today may switch at once.
    switch_start: deadline,
    switch_end: at(6),
  });

  const positions = new Map<string, number>();
  const wanted = [
    { name: '阅读推广', headcount: 1 },
    { name: '财务会计', headcount: 2 },
    { name: '审计', headcount: 1 },
  ];
  for (const [i, w] of wanted.entries()) {
    const p = DEMO_POSITIONS.find((x) => x.name === w.name);
    if (!p) throw new Error(`seed: demo position ${w.name} missing`);
    positions.set(w.name, await stage.position(examId, `202606${String(i + 1).padStart(3, '0')}`, { ...p, headcount: w.headcount }));
  }

  const proof = await demoProof();
  const subject = `${CLOSEOUT_DEMO_EXAM} 报名费`;
  for (const [i, c] of CLOSEOUT_DEMO_CANDIDATES.entries()) {
    const candidate = await stage.candidate(c);
    // Spread over the confirmation window, each a few hours apart.
    const confirmedAt = new Date(Date.parse(at(-18 + i * 2)) + i * 3_600_000).toISOString();
    // Made five minutes before it was paid, as a candidate at the cashier would.
    const created = new Date(Date.parse(confirmedAt) - 5 * 60_000).toISOString();
    const no = orderNo(created);
    const applicationId = await stage.application({
      examId,
      candidateId: candidate.id,
      positionId: positions.get(c.position)!,
      form: { ...FORM, contactPhone: c.mobile },
      steps: [
        { status: 'draft', at: at(-36), actor: 'candidate' },
        { status: 'submitted', at: at(-35), actor: 'candidate' },
        { status: 'approved', at: at(-27), actor: 'staff' },
        c.standing === 'pending'
          ? { status: 'expired', at: deadline, actor: 'system' }
          : c.standing === 'paid'
            ? { status: 'confirmed', at: confirmedAt, actor: 'system', reason: `订单 ${no}` }
            : { status: 'confirmed', at: confirmedAt, actor: 'staff', reason: WAIVER_CATEGORY_LABEL[WAIVER] },
      ],
    });

    if (c.standing === 'paid') {
      const expires = new Date(Date.parse(created) + 2 * 3_600_000).toISOString();
      const tradeNo = `SB${zonedDay(confirmedAt).replace(/-/g, '')}${randomBytes(8).toString('hex')}`;
      const recorded = new Date(Date.parse(confirmedAt) + 1000).toISOString();
      await trx
        .insertInto('sandbox_trade')
        .values({
          order_no: no,
          trade_no: tradeNo,
          amount: FEE,
          subject,
          status: 'paid',
          notify_url: '/api/payment/notify/sandbox',
          return_url: '/current-exam',
          created_at: created,
          expires_at: expires,
          paid_at: confirmedAt,
          notify_attempts: 1,
          next_notify_at: null,
          acked_at: recorded,
        })
        .execute();
      await trx
        .insertInto('payment_order')
        .values({
          office_id: opts.officeId,
          exam_id: examId,
          application_id: applicationId,
          order_no: no,
          provider: 'sandbox',
          amount: FEE,
          status: 'paid',
          pay_url: `/api/payment/sandbox/cashier?orderNo=${no}`,
          trade_no: tradeNo,
          created_at: created,
          expires_at: expires,
          paid_at: confirmedAt,
          recorded_at: recorded,
        })
        .execute();
    } else {
      const asked = new Date(Date.parse(confirmedAt) - 2 * DAY).toISOString();
      await trx
        .insertInto('fee_waiver')
        .values({
          office_id: opts.officeId,
          exam_id: examId,
          application_id: applicationId,
          category: WAIVER,
          status: c.standing === 'waived' ? 'approved' : 'pending',
          proof_mime: 'image/png',
          proof,
          reviewed_by: null,
          reviewed_at: c.standing === 'waived' ? confirmedAt : null,
          // The pending one was asked two days before the deadline: in time, so approving it still confirms.
          created_at: c.standing === 'waived' ? asked : at(-3),
        })
        .execute();
    }
  }
}
