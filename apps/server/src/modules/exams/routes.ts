import { envelopeSchema, examSchema, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createExamsRepository } from './repository';
import { createExamsService } from './service';

const examsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createExamsService(createExamsRepository(app.db));
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
    async (request) => ok(await service.list(request.office.id)),
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
    async (request) => ok(await service.current(request.office.id)),
  );
};

export default examsRoutes;
