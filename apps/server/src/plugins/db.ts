import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Hands the opened database to every module; whoever opened it closes it. */
export default fp(
  async (app: FastifyInstance, opts: { db: Db }) => {
    app.decorate('db', opts.db);
  },
  { name: 'db' },
);
