import { APPLICATION_STATUS_LABEL, type ApplicationStatus } from '@zhikaoyun/shared';
import { STATUS_LOOK } from './status-look';

// Its own module (not MyApplicationCard's): the exam list shows it without antd.

export function StatusTag({ status }: { status: ApplicationStatus }) {
  return <span className={`app-status-tag is-${STATUS_LOOK[status].tone}`}>{APPLICATION_STATUS_LABEL[status]}</span>;
}

/**
 * What needs the candidate now, in place of the status tag when there is such a thing (a cancelled
 * post to switch from, a ticket to print): journeyOf's headline, red for a refusal or loss.
 */
export function JourneyHeadline({ text, urgent }: { text: string; urgent: boolean }) {
  return <strong className={`journey-headline${urgent ? ' is-urgent' : ''}`}>{text}</strong>;
}
