import type { Db } from '../../db/database';
import { createAccountsRepository } from '../accounts/repository';
import { createExamsRepository } from '../exams/repository';
import { createExamsService } from '../exams/service';
import { createPositionsRepository } from '../positions/repository';
import { createApplicationsRepository } from './repository';
import { createApplicationsService } from './service';

/** The applications service with its collaborators, for the candidate's and the console's routes. */
export function applicationsServiceFor(db: Db) {
  const accounts = createAccountsRepository(db);
  const repo = createApplicationsRepository(db);
  const service = createApplicationsService({
    repo,
    exams: createExamsService(createExamsRepository(db)),
    positions: createPositionsRepository(db),
    findCandidate: (officeId, id) => accounts.findById(officeId, id),
  });
  return { service, repo };
}
