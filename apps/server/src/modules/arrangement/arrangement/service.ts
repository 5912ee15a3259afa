import type { AuditService } from '../../platform/audit/service';
import type { ExamLookup } from '../../content/exams/lookup';
import type { PackedArrangeInput, PackedArrangeResult } from './arrange';
import { createSiteCityService } from './city-service';
import { createLateSeatsService } from './late-service';
import type { ArrangementRepository } from './repository';
import { createSeatingService } from './seating-service';
import type { readSiteSheet } from './sheet';
import { createVenuesService } from './venues-service';

export interface ArrangementDeps {
  repo: ArrangementRepository;
  audit: AuditService;
  exams: ExamLookup;
  /** Off the event loop (a worker thread, decision 014): the site sheet read and the seats computed. */
  heavy: {
    readSites(examId: number, file: Buffer): ReturnType<typeof readSiteSheet>;
    arrange(input: PackedArrangeInput): Promise<PackedArrangeResult>;
  };
}

/**
 * Subjects, sites with rooms, and the seat arrangement of an exam's confirmed candidates. The
 * arrangement runs in one transaction, reproducible from its seed (kept in the audit log), and may
 * be re-run until tickets are published.
 */
export function createArrangementService(deps: ArrangementDeps) {
  return {
    ...createSiteCityService(deps),
    ...createVenuesService(deps),
    ...createSeatingService(deps),
    ...createLateSeatsService(deps),
  };
}
