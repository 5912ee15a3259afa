import {
  adminExamSchema,
  envelopeSchema,
  examInputSchema,
  examSaveImpactSchema,
  examPublishSchema,
  officeQuerySchema,
  ok,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Console: exams with their windows and examConfig; open (publish) and close. */
const examsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.examsAdmin;
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getExamList',
    {
      config: STAFF_ROUTE,
      schema: { summary: '考试列表（含未发布）', tags, querystring: q, response: { 200: envelopeSchema(z.array(adminExamSchema)) } },
    },
    async (request) => ok(await service.list(request.office.id)),
  );
  app.post(
    '/saveExam',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '新建或修改考试（时间窗口、报名表字段）',
        tags,
        querystring: q,
        body: examInputSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number(), examCode: z.string() })) },
      },
    },
    async (request) => ok(await service.save(request.staff, request.body, request.ip, request.office.timeZone)),
  );
  app.post(
    '/previewExamSave',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '保存考试前预览：改动了哪些时间、将通知多少报名考生',
        tags,
        querystring: q,
        body: examInputSchema,
        response: { 200: envelopeSchema(examSaveImpactSchema) },
      },
    },
    async (request) => ok(await service.previewSave(request.office.id, request.body, request.office.timeZone)),
  );
  app.post(
    '/setExamPublished',
    {
      config: STAFF_ROUTE,
      schema: { summary: '发布或撤回考试', tags, querystring: q, body: examPublishSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await service.setPublished(request.staff, request.body.examId, request.body.published, request.ip);
      return ok(null);
    },
  );
};

export default examsAdminRoutes;
