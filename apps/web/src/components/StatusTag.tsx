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

/**
 * What needs the candidate now, in place of the status tag when there is such a thing (a cancelled
 * post to switch from, a ticket to print): journeyOf's headline, red for a refusal or loss.
 */
export function JourneyHeadline({ text, urgent }: { text: string; urgent: boolean }) {
  return <strong className={`journey-headline${urgent ? ' is-urgent' : ''}`}>{text}</strong>;
}
