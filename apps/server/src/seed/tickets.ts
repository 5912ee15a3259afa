import { zonedDay } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database';
import type { DB } from '../db/schema';
import { DEMO_POSITIONS } from './data';
import { insertIdPhoto } from './fixtures';
import { idPhotoJpeg } from './id-photo';
import { confirmedSteps, demoStage, seatAndPublishDemo, type DemoCandidate, type DemoStageOptions } from './writes';

/**
 * The ticketed demo candidates; the first signs in to see and print a ticket. Two are not verified
 * (issue 33): 吴婷's real-name check is still pending, 郑浩's failed, so their tickets ask them to
 * come 60 minutes early and the door check and room lists show it.
 */
export const TICKET_DEMO_CANDIDATES: DemoCandidate[] = [
  { name: '陈静', first17: '33010619970412202', mobile: '13900002001' },
  { name: '刘洋', first17: '33010619960923213', mobile: '13900002002' },
  { name: '孙悦', first17: '33010619980117224', mobile: '13900002003' },
  { name: '周杰', first17: '33010619950605235', mobile: '13900002004' },
  { name: '吴婷', first17: '33010619990830246', mobile: '13900002005', realName: 'pending' },
  { name: '郑浩', first17: '33010619971111257', mobile: '13900002006', realName: 'failed' },
];

const FORM = {
  education: '本科',
  degree: '学士',
  school: '浙江大学',
  major: '计算机科学与技术',
  graduationDate: '2019-06',
  workYears: 4,
  politicalStatus: '群众',
  contactPhone: '13900002001',
  address: '杭州市西湖区',
  pledge: true,
};

/** The shared good ID photo (id-photo.ts), so the demo ticket prints a photo that passes every photo rule. */
const demoPhoto = () => idPhotoJpeg();

/**
 * An exam past confirmation whose confirmed candidates are seated and whose tickets are
 * published with printing open, so a fresh `npm start` shows the ticket on the phone and as a
 * PDF, and the door check in the console. Seated and numbered by the product's own arrangement
 * and ticket numbering, inside the seed's transaction. The candidates sign in with their ID
 * numbers and DEMO_CANDIDATE_PASSWORD.
 */
export async function seedTicketsDemo(db: Db, trx: Kysely<DB>, opts: DemoStageOptions): Promise<void> {
  const stage = await demoStage(trx, opts);
  const { at, stamp } = stage;
  const examId = await stage.exam({
    name: '示范市 2026 年度事业单位招聘（准考证打印阶段）',
    registration_start: at(-60),
    registration_end: at(-50),
    review_start: at(-60),
    review_end: at(-45),
    confirmation_start: at(-40),
    confirmation_end: at(-30),
    exam_code: '03',
  });
  const positions: number[] = [];
  for (const [i, p] of DEMO_POSITIONS.filter((x) => x.name === '财务会计' || x.name === '行政辅助').entries())
    positions.push(await stage.position(examId, `202603${String(i + 1).padStart(3, '0')}`, p));
  // The exam day a week ahead.
  await stage.subjects(examId, zonedDay(at(7), opts.timeZone));

  const photo = await demoPhoto();
  for (const [i, c] of TICKET_DEMO_CANDIDATES.entries()) {
    const candidate = await stage.candidate(c);
    const photoId = await insertIdPhoto(trx, { officeId: opts.officeId, candidateId: candidate.id, photo, stamp });
    await trx.updateTable('candidate').set({ photo_id: photoId }).where('id', '=', candidate.id).execute();
    const positionId = positions[i % positions.length]!;
    const form = { ...FORM, contactPhone: c.mobile };
    await stage.application({ examId, candidateId: candidate.id, positionId, form, steps: confirmedSteps(at, [-56, -55, -44, -35]) });
  }

  await seatAndPublishDemo(
    db,
    trx,
    opts,
    { id: examId, code: '03', seed: 'demo-2026' },
    { name: '示范市第一中学考点', address: '示范市西湖区文三路 88 号（北门进入）', rooms: 2, seatsPerRoom: 4 },
    { start: at(-1), end: at(6) },
  );
}
