import { archiveStatusSchema, envelopeSchema, examIdBodySchema, examIdQuerySchema, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { STAFF_ROUTE } from '../../access/console-deps';

const tags = ['console'];

/**
 * An exam's archive (issue 36), under /api/admin: made in the background once the exam is over,
 * its progress polled, then downloaded as one zip with a signed manifest (npm run verify-archive).
 */
const archiveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { archive } = app.services;
  app.post(
    '/archiveExam',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '生成考试归档（考试结束后；后台生成，含各类记录表格、公示 PDF 与签名清单）',
        tags,
        querystring: officeQuerySchema,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(archiveStatusSchema) },
      },
    },
    async (request) => ok(await archive.start(request.staff, request.office, request.body.examId, request.ip)),
  );
  app.get(
    '/getArchiveStatus',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考试归档状态（未生成、生成中、已完成、失败）与个人信息匿名化日期',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(archiveStatusSchema) },
      },
    },
    async (request) => ok(await archive.status(request.staff.officeId, request.query.examId)),
  );
  app.get(
    '/getArchive',
    {
      config: STAFF_ROUTE,
      schema: { summary: '下载考试归档（.zip）', tags, querystring: examIdQuerySchema.extend(officeQuerySchema.shape) },
    },
    async (request, reply) => {
      const file = await archive.open(request.staff, request.query.examId, request.ip);
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Length', String(file.size))
        .header(
          'Content-Disposition',
          `attachment; filename="exam-archive-${request.query.examId}.zip"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        )
        .send(file.stream);
    },
  );
};

export default archiveRoutes;
