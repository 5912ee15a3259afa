import { documentInputSchema, envelopeSchema, examDocumentSchema, examIdQuerySchema, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAuditRepository } from '../audit/repository';
import { createAuditService } from '../audit/service';
import { createDocumentsAdminService } from './admin-service';

/** Console: an exam's notice (招考公告), guide and integrity pledge. */
const documentsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createDocumentsAdminService({
    db: app.db,
    audit: createAuditService(createAuditRepository(app.db)),
    changed: (officeId) => app.publicCache.invalidate(officeId),
  });
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getExamDocuments',
    {
      config: { auth: 'staff' },
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
      config: { auth: 'staff', roles: ['admin'] },
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
