import { availableEvents, type ApplicationStatus, type StaffRole } from '@zhikaoyun/shared';

export type ReviewAction = 'approve' | 'reject';

const REVIEW_ACTIONS: readonly ReviewAction[] = ['approve', 'reject'];

/**
 * The decisions a staff member may take on an application in a status, as the application
 * lifecycle allows them (the drawer's buttons, the queue's 审核 link, the bulk-approve
 * checkboxes all ask here, and the server applies the same machine).
 */
export function reviewActions(status: ApplicationStatus, role: StaffRole): readonly ReviewAction[] {
  const allowed = availableEvents(status, role);
  return REVIEW_ACTIONS.filter((a) => allowed.includes(a));
}
