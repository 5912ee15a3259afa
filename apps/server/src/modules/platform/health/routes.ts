import { envelopeSchema, ok } from '@zhikaoyun/shared';
import { nowIso } from '../../../lib/clock';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

const healthSchema = z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), time: z.string() });

/** For load balancers and monitors: answers only when the database answers. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = app.services.repos.health;
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
        await repo.ping();
      } catch {
        return reply.code(503).send({ success: false, errorCode: 503, msg: '数据库不可用' });
      }
      return ok({ status: 'ok' as const, database: repo.dialect, time: nowIso() });
    },
  );
};

export default healthRoutes;
