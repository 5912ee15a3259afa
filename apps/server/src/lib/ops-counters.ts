/**
 * What the process counts for its operators (exported by plugins/metrics.ts at /metrics). Plain
 * numbers bumped where things happen, read only when Prometheus scrapes: the hot paths (the public
 * cache's raw answers run at the machine's limit) pay one addition, never a label lookup.
 * Process-wide on purpose: metrics describe a process, whatever number of apps it holds.
 */
export type ShedReason = 'in_flight' | 'staff_in_flight' | 'event_loop_lag' | 'forced';
export type NotifyOutcome = 'accepted' | 'refused' | 'error';

export const opsCounters = {
  shed: { in_flight: 0, staff_in_flight: 0, event_loop_lag: 0, forced: 0 } satisfies Record<ShedReason, number>,
  publicCache: { hits: 0, misses: 0 },
  /** PostgreSQL transactions run again after a deadlock or serialization failure. */
  transactionRetries: 0,
  paymentNotifies: { accepted: 0, refused: 0, error: 0 } satisfies Record<NotifyOutcome, number>,
  heavyTasks: { queued: 0, running: 0 },
};
