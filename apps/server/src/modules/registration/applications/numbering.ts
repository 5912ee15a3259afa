import { transitionOf } from '@zhikaoyun/shared';
import type { TransitionHook } from './lifecycle';
import { assignApplicationNo } from './repository';

/**
 * The lifecycle hook that gives a submitted application its 报名号 (the first submit; a resubmit
 * keeps it). Listed last among the hooks: its counter row is then held only for the commit.
 */
export const numberOnSubmit: TransitionHook = async (trx, fact) => {
  if (fact.to === transitionOf('submit').to) await assignApplicationNo(trx, fact.application.id);
};
