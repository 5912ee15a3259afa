import multipart from '@fastify/multipart';
import {
  ATTACHMENT_EXTENSIONS,
  ATTACHMENT_MAX_BYTES,
  attachmentSchema,
  envelopeSchema,
  ErrorCode,
  officeQuerySchema,
  ok,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { nowIso } from '../../lib/time';
import { createAuditRepository } from '../audit/repository';
import { createAuditService } from '../audit/service';
import { attachmentType } from './file-type';

const idQuery = z.object({ id: z.coerce.number({ message: '附件编号有误' }).int().positive({ message: '附件编号有误' }) });

/** Notice attachments: staff upload (`/api/admin/uploadAttachment`), anyone downloads (`/api/getAttachment`). */
const attachmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const audit = createAuditService(createAuditRepository(app.db));
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const q = officeQuerySchema;

  app.get(
    '/getAttachment',
    { schema: { summary: '下载公告附件', tags: ['notices'], querystring: idQuery.extend(q.shape) } },
    async (request, reply) => {
      const file = await app.db.kysely
        .selectFrom('attachment')
        .select(['name', 'mime', 'data'])
        .where('office_id', '=', request.office.id)
        .where('id', '=', request.query.id)
        .executeTakeFirst();
      if (!file) throw new AppError(ErrorCode.NotFound, '该附件不存在或已删除');
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
      if (!request.isMultipart()) throw new AppError(ErrorCode.Validation, '请选择要上传的附件');
      const file = await request.file();
      if (!file || file.fieldname !== 'file') throw new AppError(ErrorCode.Validation, '请选择要上传的附件');
      let data: Buffer;
      try {
        data = await file.toBuffer();
      } catch {
        throw new AppError(ErrorCode.Validation, `附件不能超过 ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`);
      }
      if (data.length === 0) throw new AppError(ErrorCode.Validation, '附件文件是空的，请重新选择');
      // Path separators and control characters never reach a download's file name.
      const name =
        [...file.filename]
          .filter((ch) => ch > '\u001f' && ch !== '/' && ch !== '\\')
          .join('')
          .slice(-120) || 'attachment';
      const mime = attachmentType(name, data);
      if (!mime) throw new AppError(ErrorCode.Validation, `附件格式不支持，请上传 ${ATTACHMENT_EXTENSIONS.join('、')} 文件`);
      const row = await app.db.kysely
        .insertInto('attachment')
        .values({ office_id: request.office.id, name, mime, bytes: data.length, data, staff_id: request.staff.id, created_at: nowIso() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit.record(request.staff, '上传附件', `attachment:${row.id}`, name, request.ip);
      return ok({ name, url: `/api/getAttachment?id=${row.id}&officeCode=${encodeURIComponent(request.office.code)}` });
    },
  );
};

export default attachmentsRoutes;
