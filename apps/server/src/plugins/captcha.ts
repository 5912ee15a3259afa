import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createCaptchaRepository } from '../modules/captcha/repository';
import { createCaptchaService, type CaptchaService } from '../modules/captcha/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Image captchas kept in the database, so that any process can check one another issued. */
    captcha: CaptchaService;
  }
}

const SWEEP_INTERVAL_MS = 60_000;

export default fp(
  async (app: FastifyInstance, opts: { fixedCode: string | undefined }) => {
    const service = createCaptchaService(createCaptchaRepository(app.db), { fixedCode: opts.fixedCode });
    app.decorate('captcha', service);
    const timer = setInterval(() => {
      service.sweep().catch((err: unknown) => app.log.warn({ err }, 'captcha sweep failed'));
    }, SWEEP_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'captcha', dependencies: ['db'] },
);
