import { APPLICATION_STATUS_LABEL, type ApplicationStatus } from '@zhikaoyun/shared';

// Its own module (not MyApplicationCard's): the exam list shows it without antd.

/** The look of each status's tag (the compiler asks for a new status's look here). */
const STATUS_TONE: Readonly<Record<ApplicationStatus, string>> = {
  draft: 'draft',
  submitted: 'submitted',
  approved: 'approved',
  rejected: 'rejected',
  rejectedFinal: 'rejected',
  confirmed: 'approved',
  expired: 'rejected',
  cancelled: 'rejected',
};

export function StatusTag({ status }: { status: ApplicationStatus }) {
  return <span className={`app-status-tag is-${STATUS_TONE[status]}`}>{APPLICATION_STATUS_LABEL[status]}</span>;
}
