import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createAuditMac, type AuditMac } from '../lib/audit-mac';
import { createDataCipher, type DataCipher } from '../lib/crypto';
import type { KeyRing } from '../lib/crypto-suite';

declare module 'fastify' {
  interface FastifyInstance {
    /** Encryption and blind indexes for personal data at rest. */
    cipher: DataCipher;
    /** The MACs of the audit chains (a key of its own, derived from the same data key). */
    auditMac: AuditMac;
  }
}

export default fp(
  async (app: FastifyInstance, opts: { keys: KeyRing }) => {
    app.decorate('cipher', createDataCipher(opts.keys.current, opts.keys.previous, opts.keys.suite));
    app.decorate('auditMac', createAuditMac(opts.keys));
  },
  { name: 'cipher' },
);
