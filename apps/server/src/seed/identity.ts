import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { demoStage, type DemoCandidate, type DemoStageOptions } from './writes';

/**
 * A demo candidate whose real-name check failed (issue 33): signed in, the confirm page shows the
 * reason and the two ways out (更正姓名, 身份申诉) instead of a submit. No application yet.
 */
export const IDENTITY_FAILED_DEMO_CANDIDATE: DemoCandidate = {
  name: '黄小磊',
  first17: '33010619940307268',
  mobile: '13900002007',
  realName: 'failed',
};

export async function seedIdentityDemo(trx: Kysely<DB>, opts: DemoStageOptions): Promise<void> {
  const stage = await demoStage(trx, opts);
  await stage.candidate(IDENTITY_FAILED_DEMO_CANDIDATE);
}
