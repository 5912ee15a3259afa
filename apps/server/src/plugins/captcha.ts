import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Image captchas are kept in the database, so that any process can check one another issued
 * (`app.services.captcha`); this sweeps the expired and used ones away once a minute.
 */
export default fp(
  async (app: FastifyInstance) => {
    const service = app.services.captcha;
    const timer = setInterval(() => {
      service.sweep().catch((err: unknown) => app.log.warn({ err }, 'captcha sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'captcha', dependencies: ['services'] },
);
