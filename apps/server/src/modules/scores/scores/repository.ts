import { committer } from '../../../db/commit-group';
import type { Db } from '../../../db/database';
import { createScoreMarksRepository } from './marks-repository';
import { createScoreRankingRepository } from './ranking-repository';
import { createScoreReviewRepository } from './review-repository';
import { createScoreRulesRepository } from './rules-repository';

/**
 * The SQL of scores. Points are integer hundredths and weights integer thousandths, so the total
 * is integer arithmetic in the database and equal totals compare equal on both dialects.
 */
export function createScoresRepository(db: Db) {
  return {
    commit: committer(db),
    ...createScoreRulesRepository(db),
    ...createScoreMarksRepository(db),
    ...createScoreRankingRepository(db),
    ...createScoreReviewRepository(db),
  };
}

export type ScoresRepository = ReturnType<typeof createScoresRepository>;
