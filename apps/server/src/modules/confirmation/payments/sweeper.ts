import type { FastifyInstance } from 'fastify';

/**
 * The confirmation sweeper: what must happen at a time whether or not a request arrives then.
 * Applications whose window ended expire (after asking the provider about any open order);
 * candidates of cancelled positions who neither switched nor opted out are refunded when the
 * switch window closes; refunds a provider did not take are asked again; the sandbox retries its
 * notifies; candidates still owing a step are reminded before its deadline (decision 038); pending real-name checks are asked again. Every step is idempotent (through the lifecycle's conditional writes), so any number
 * of processes may sweep at once.
 */
export function sweepConfirmation(app: FastifyInstance) {
  const { payments, closeout, sandbox, reminders, identity } = app.services;
  return (async () => {
    const delivered = sandbox ? await sandbox.deliverDue() : 0;
    const expired = await payments.expireOverdue();
    const closedOut = await closeout.closeSwitchWindows();
    const refunded = await payments.refundsDue();
    const reminded = await reminders.sweep();
    // Issue 33: real-name checks the provider did not answer at registration, asked again.
    const identityChecks = await identity.retryPending();
    return { delivered, expired, closedOut, refunded, reminded, identityChecks };
  })();
}

export function startConfirmationSweeper(app: FastifyInstance, everyMs: number): void {
  if (everyMs <= 0) return;
  let running = false;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      if (running) return;
      running = true;
      sweepConfirmation(app)
        .catch((err: unknown) =>
          app.log.error({ err: { message: err instanceof Error ? err.message : String(err) } }, 'confirmation sweep failed'),
        )
        .finally(() => {
          running = false;
        });
    }, everyMs);
    // A sweep never keeps the process alive on its own.
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
