import { envelopeSchema, examDocumentSchema, getDocQuerySchema, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cacheKey } from '../../../plugins/public-cache';

const documentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.documents;

  app.get(
    '/getDoc',
    {
      schema: {
        summary: '考试文件（招考公告、诚信承诺书、报考指南、附件）',
        tags: ['documents'],
        querystring: getDocQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(z.array(examDocumentSchema)) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getDoc', request.query), () =>
        service.getExamDocuments(request.office.id, request.query.examId, request.query.type),
      ),
  );
};

export default documentsRoutes;
