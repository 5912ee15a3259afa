import multipart from '@fastify/multipart';
import { ATTACHMENT_MAX_BYTES, attachmentSchema, envelopeSchema, ErrorCode, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readUploadedFile } from '../../lib/upload';
import { createAuditRepository } from '../audit/repository';
import { createAuditService } from '../audit/service';
import { createAttachmentsService } from './service';

const idQuery = z.object({ id: z.coerce.number({ message: '附件编号有误' }).int().positive({ message: '附件编号有误' }) });

/** Notice attachments: staff upload (`/api/admin/uploadAttachment`), anyone downloads (`/api/getAttachment`). */
const attachmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createAttachmentsService({ db: app.db, audit: createAuditService(createAuditRepository(app.db)) });
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const q = officeQuerySchema;

  app.get(
    '/getAttachment',
    { schema: { summary: '下载公告附件', tags: ['notices'], querystring: idQuery.extend(q.shape) } },
    async (request, reply) => {
      const file = await service.find(request.office.id, request.query.id);
      return reply
        .header('content-type', file.mime)
        .header(
          'content-disposition',
          `attachment; filename="attachment-${request.query.id}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        )
        .header('cache-control', 'public, max-age=3600')
        .send(Buffer.from(file.data));
    },
  );

  app.post(
    '/admin/uploadAttachment',
    {
      config: { auth: 'staff', roles: ['admin'] },
      bodyLimit: ATTACHMENT_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '上传公告附件（multipart，字段 file）',
        tags: ['console'],
        querystring: q,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(attachmentSchema) },
      },
    },
    async (request) => {
      const { name, data } = await readUploadedFile(request, {
        code: ErrorCode.Validation,
        missing: '请选择要上传的附件',
        tooLarge: `附件不能超过 ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`,
        empty: '附件文件是空的，请重新选择',
      });
      return ok(await service.upload({ ...request.staff, officeCode: request.office.code }, name, data, request.ip));
    },
  );
};

export default attachmentsRoutes;
