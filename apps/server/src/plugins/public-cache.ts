import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The public-read cache's contract. Staff writes call `invalidate(officeId)` after their
 * transaction commits, so candidates see the change on their next read without a restart.
 */
export interface PublicCache {
  invalidate(officeId: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    publicCache: PublicCache;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const cache: PublicCache = {
      async invalidate() {
        // Nothing cached yet: the reads go to the database each time.
      },
    };
    app.decorate('publicCache', cache);
  },
  { name: 'public-cache', dependencies: ['db', 'redis'] },
);
