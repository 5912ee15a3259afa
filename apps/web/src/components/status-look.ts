import type { ApplicationStatus } from '@zhikaoyun/shared';

/** The site's four looks of a status: its tag, its status card and its timeline dot. */
export type StatusTone = 'draft' | 'submitted' | 'approved' | 'rejected';

/**
 * How each application status is coloured, everywhere: `tone` on the candidate site (the status
 * tag, the status card of 报考状态, the timeline), `tag` the colour of antd's Tag in the console's
 * queue, which tells more apart (an expired application grey, a cancelled one orange, a
 * confirmed one green beside an approved one). One table, so the compiler asks for a new status's
 * look here and nowhere else.
 */
export const STATUS_LOOK: Readonly<Record<ApplicationStatus, { tone: StatusTone; tag: string }>> = {
  draft: { tone: 'draft', tag: 'default' },
  submitted: { tone: 'submitted', tag: 'processing' },
  approved: { tone: 'approved', tag: 'success' },
  rejected: { tone: 'rejected', tag: 'error' },
  rejectedFinal: { tone: 'rejected', tag: 'error' },
  confirmed: { tone: 'approved', tag: 'green' },
  expired: { tone: 'rejected', tag: 'default' },
  cancelled: { tone: 'rejected', tag: 'orange' },
};
