import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { composeServices, type Services } from '../composition';
import type { CompositionOptions } from '../composition-options';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every repository and service of this app instance, built once (see composition.ts). */
    services: Services;
  }
}

export default fp(
  async (app: FastifyInstance, options: CompositionOptions) => {
    const services = composeServices(app, options);
    app.decorate('services', services);
    // The worker finishes the round it is in (each outcome written) before the database closes.
    app.addHook('onClose', () => services.smsWorker.stop());
  },
  // Before tenancy, auth and captcha, which use its parts; the public cache it reads only when called.
  { name: 'services', dependencies: ['db', 'cipher', 'redis'] },
);
