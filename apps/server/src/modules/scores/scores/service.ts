import type { Readable } from 'node:stream';
import type { OfficeLock } from '../../../lib/office-lock';
import type { AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import type { NotificationsService } from '../../messages/notifications/service';
import type { HeavyTasks } from '../../../heavy-tasks';
import type { LaterStatus } from '@zhikaoyun/shared';
import type { LaterLifecycle } from '../stages/lifecycle';
import type { ScoresRepository } from './repository';
import type { RankingExportJob } from './ranking-sheet';
import { createScoreImportService } from './import-service';
import { createScorePublishService } from './publish-service';
import { createScoreRankingService } from './ranking-service';
import { createScoreReviewService } from './review-service';
import { createScoreRulesService } from './rules-service';

export interface ScoresDeps {
  repo: ScoresRepository;
  audit: AuditService;
  exams: ExamLookup;
  /** Scores published: every ticket holder's message, written with the publishing. */
  notifications: Pick<NotificationsService, 'stepToAudience' | 'stepToApplication' | 'notify'>;
  /** One Excel import per office at a time (shared with the position import). */
  importLock: OfficeLock;
  /** After each committed change: the public interview list shows it on its next read. */
  changed: (officeId: number) => Promise<void>;
  /** The office's data version `changed` moves (null: unknown now), which keeps candidates' answers fresh. */
  version: (officeId: number) => Promise<string | null>;
  /** Off the event loop (a worker thread, decision 014): the sheet read with its totals, the ranking. */
  heavy: Pick<HeavyTasks, 'readScores' | 'rank'>;
  /** The one writer of the steps after confirmation: 放弃面试 and 递补 go through it. */
  later: LaterLifecycle;
  /** Each interview-list entrant's state in that machine, by application (the stages compute it from their results). */
  laterStates: (officeId: number, examId: number) => Promise<ReadonlyMap<number, LaterStatus>>;
  /** The ranking's workbook, written by an export worker (decision 016); `failed`: the office's words if it cannot start. */
  exportFile: (job: Omit<RankingExportJob, 'kind'>, failed: string) => Promise<Readable>;
}

/**
 * Written-exam scores: the rules, the import (all rows or none), the ranking per position and the
 * interview list, publishing, the candidate's own score and the public list. Totals, pass flags
 * and ranks are computed in the database (see the repository); the list follows the shared rule:
 * the qualified by total until headcount × ratio places are filled, ties at the cut-off included.
 */
export function createScoresService(deps: ScoresDeps) {
  return {
    ...createScoreRulesService(deps),
    ...createScoreImportService(deps),
    ...createScoreRankingService(deps),
    ...createScorePublishService(deps),
    ...createScoreReviewService(deps),
  };
}

export type ScoresService = ReturnType<typeof createScoresService>;
