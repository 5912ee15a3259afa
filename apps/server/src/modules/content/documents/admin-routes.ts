import { documentInputSchema, envelopeSchema, examDocumentSchema, examIdQuerySchema, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Console: an exam's notice (招考公告), guide and integrity pledge. */
const documentsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.documentsAdmin;
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getExamDocuments',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考试文件（公告、指南、承诺书）',
        tags,
        querystring: examIdQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.array(examDocumentSchema)) },
      },
    },
    async (request) => ok(await service.list(request.office.id, request.query.examId)),
  );
  app.post(
    '/saveExamDocument',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '保存考试文件（富文本，保存时净化）',
        tags,
        querystring: q,
        body: documentInputSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.save(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
};

export default documentsAdminRoutes;
