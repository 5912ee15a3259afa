import { isStaffVisible, type ApplicationStatus } from '@zhikaoyun/shared';
import { notFound } from '../../../lib/app-error';
import { inScope, type ApplicationScope } from '../../access/scope';

/**
 * The one answer for an application that is not there for whoever asks. Each service reads the
 * columns it needs through its repository (the office's own rows only) and hands the row here, so
 * every service says the same words, and missing, another unit's and (for reading) a draft the
 * candidate has not submitted read alike: a 403 for another unit's record told a reviewer which
 * ids exist (security review 3, N5).
 */
export function requireApplication<T>(row: T | null | undefined): T {
  if (row === null || row === undefined) throw notFound('application');
  return row;
}

/**
 * A record a staff member may work on: of their units. `hideDrafts` for reading (a draft is the
 * candidate's own until submitted); a decision leaves it to the lifecycle, which tells the
 * reviewer the record was withdrawn.
 */
export function requireForStaff<T extends { status: ApplicationStatus; unit: string | null }>(
  scope: ApplicationScope,
  row: T | null | undefined,
  { hideDrafts }: { hideDrafts: boolean },
): T {
  const found = requireApplication(row);
  if ((hideDrafts && !isStaffVisible(found.status)) || !inScope(scope, found.unit)) throw notFound('application');
  return found;
}
