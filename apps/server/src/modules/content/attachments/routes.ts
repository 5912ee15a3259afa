import multipart from '@fastify/multipart';
import {
  ATTACHMENT_MAX_BYTES,
  attachmentIdQuerySchema,
  attachmentUploadSchema,
  envelopeSchema,
  ErrorCode,
  officeQuerySchema,
  ok,
} from '@zhikaoyun/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readUploadedFile } from '../../../lib/upload';
import { matchesEtag } from '../../../plugins/public-cache';
import { STAFF_ROUTE } from '../../access/console-deps';
import type { AttachmentsService } from './service';

/** How often each process deletes uploads nothing has linked to for a day. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

type Row = Awaited<ReturnType<AttachmentsService['findPublished']>>;

/**
 * Notice attachments: staff upload (`/api/admin/uploadAttachment`) and open any file of their
 * office (`/api/admin/getAttachment`); anyone downloads a file something published links to
 * (`/api/getAttachment`). Ids are random, so files cannot be found by counting.
 */
const attachmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.attachments;
  await app.register(multipart, { limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
  const q = officeQuerySchema;
  const query = attachmentIdQuerySchema.extend(q.shape);

  async function send(request: FastifyRequest, reply: FastifyReply, row: Row, cacheControl: string) {
    // A file never changes under its id; the tag lets a browser keep it and still ask each time.
    const etag = `"${row.public_id}"`;
    reply.header('cache-control', cacheControl).header('etag', etag);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    const file = await service.withData(row);
    return reply
      .header('content-type', file.mime)
      .header('content-disposition', `attachment; filename="attachment"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .send(file.data);
  }

  app.get(
    '/getAttachment',
    { schema: { summary: '下载公告附件（仅限已发布内容引用的附件）', tags: ['notices'], querystring: query } },
    // Only this browser may keep it, and it asks again each time (304 while still published), so
    // a file withdrawn with its notice is not served from any cache afterwards.
    async (request, reply) => send(request, reply, await service.findPublished(request.office.id, request.query.id), 'private, no-cache'),
  );

  app.get(
    '/admin/getAttachment',
    { config: STAFF_ROUTE, schema: { summary: '下载附件（含草稿公告的附件）', tags: ['console'], querystring: query } },
    async (request, reply) => send(request, reply, await service.findForStaff(request.office.id, request.query.id), 'no-store'),
  );

  app.post(
    '/admin/uploadAttachment',
    {
      config: STAFF_ROUTE,
      bodyLimit: ATTACHMENT_MAX_BYTES + 64 * 1024,
      schema: {
        summary: '上传公告附件（multipart，字段 file；保存到公告后才对考生可见，一天内未被引用则删除）',
        tags: ['console'],
        querystring: q,
        consumes: ['multipart/form-data'],
        response: { 200: envelopeSchema(attachmentUploadSchema) },
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

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = service.sweep().catch((err: Error) => app.log.warn({ err: { message: err.message } }, 'attachment sweep failed'));
  };
  app.addHook('onReady', async () => {
    sweep();
    timer = setInterval(sweep, SWEEP_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
};

export default attachmentsRoutes;
