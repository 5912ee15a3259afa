import { envelopeSchema, examSchema, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cacheKey, LIVE_TTL_MS } from '../../../plugins/public-cache';

const examsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.exams;
  const tags = ['exams'];
  app.get(
    '/getExamList',
    {
      schema: {
        summary: '考试列表（含报名、审查、确认时间窗与阶段）',
        tags,
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(z.array(examSchema)) },
      },
    },
    // An exam's phase follows the clock: a short time to live keeps it exact to about a second.
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getExamList'), () => service.list(request.office.id), { ttlMs: LIVE_TTL_MS }),
  );
  app.get(
    '/getCurrentExam',
    {
      schema: {
        summary: '当前考试（报名中优先，其次即将开始）',
        tags,
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(examSchema.nullable()) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getCurrentExam'), () => service.current(request.office.id), { ttlMs: LIVE_TTL_MS }),
  );
};

export default examsRoutes;
