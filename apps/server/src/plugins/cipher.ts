import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createDataCipher, type DataCipher } from '../lib/crypto';

declare module 'fastify' {
  interface FastifyInstance {
    /** Encryption and blind indexes for personal data at rest. */
    cipher: DataCipher;
  }
}

export default fp(
  async (app: FastifyInstance, opts: { dataKey: Buffer; previousKeys?: readonly Buffer[] }) => {
    app.decorate('cipher', createDataCipher(opts.dataKey, opts.previousKeys ?? []));
  },
  { name: 'cipher' },
);
