import {
  applyOpeningCheckSchema,
  envelopeSchema,
  examIdOnlyQuerySchema,
  officeQuerySchema,
  ok,
  openingCheckSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Close-out (开考比例核定), under /api/admin, for the office's admins. */
const closeoutAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.closeout;
  const tags = ['console'];
  const q = officeQuerySchema;
  app.get(
    '/getOpeningCheck',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '开考比例核查：各岗位计划人数、已确认人数与建议（keep / reduce / cancel）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(openingCheckSchema) },
      },
    },
    async (request) => ok(await service.check(request.staff, request.query.examId)),
  );
  app.post(
    '/applyOpeningCheck',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '核定开考岗位：正常开考、核减计划或取消岗位（一次事务，逐项留痕）',
        tags,
        querystring: q,
        body: applyOpeningCheckSchema,
        response: { 200: envelopeSchema(z.object({ kept: z.number().int(), reduced: z.number().int(), cancelled: z.number().int() })) },
      },
    },
    async (request) => ok(await service.apply(request.staff, request.body, request.ip)),
  );
};

export default closeoutAdminRoutes;
