import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Image captchas (offices' and the platform operator's) are kept in the database, so that any process can check one another issued
 * (`app.services.captcha`); this sweeps the expired and used ones away once a minute.
 */
export default fp(
  async (app: FastifyInstance) => {
    const services = [app.services.captcha, app.services.platform.captcha];
    const timer = setInterval(() => {
      for (const service of services) service.sweep().catch((err: unknown) => app.log.warn({ err }, 'captcha sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'captcha', dependencies: ['services'] },
);
