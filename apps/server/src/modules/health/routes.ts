import { envelopeSchema, ok } from '@zhikaoyun/shared';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), time: z.string() });

/** For load balancers and monitors: answers only when the database answers. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { tenant: false },
      schema: {
        summary: '健康检查（含数据库）',
        tags: ['health'],
        response: { 200: envelopeSchema(healthSchema), 503: envelopeSchema(z.null()) },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db.kysely);
      } catch {
        return reply.code(503).send({ success: false, errorCode: 503, msg: '数据库不可用' });
      }
      return ok({ status: 'ok' as const, database: app.db.dialect, time: new Date().toISOString() });
    },
  );
};

export default healthRoutes;
