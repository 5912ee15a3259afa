import {
  adminNoticeSchema,
  envelopeSchema,
  noticeIdQuerySchema,
  noticeInputSchema,
  noticePublishSchema,
  officeQuerySchema,
  ok,
  pageQuerySchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Console: notices (drafts included), publish/withdraw, delete. */
const noticesAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.noticesAdmin;
  const tags = ['console'];
  const q = officeQuerySchema;
  const done = envelopeSchema(z.null());

  app.get(
    '/getNoticeList',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '公告列表（含草稿）',
        tags,
        querystring: pageQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(adminNoticeSchema), total: z.number() })) },
      },
    },
    async (request) => ok(await service.page(request.office.id, request.query.page, request.query.pageSize)),
  );
  app.get(
    '/getNoticeDetail',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '公告详情（含草稿）',
        tags,
        querystring: noticeIdQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(adminNoticeSchema) },
      },
    },
    async (request) => ok(await service.get(request.office.id, request.query.id)),
  );
  app.post(
    '/saveNotice',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '新建或修改公告（富文本，保存时净化）',
        tags,
        querystring: q,
        body: noticeInputSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(await service.save(request.staff, request.body, request.ip)),
  );
  app.post(
    '/setNoticePublished',
    {
      config: STAFF_ROUTE,
      schema: { summary: '发布或撤回公告', tags, querystring: q, body: noticePublishSchema, response: { 200: done } },
    },
    async (request) => {
      await service.setPublished(request.staff, request.body.id, request.body.published, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/deleteNotice',
    { config: STAFF_ROUTE, schema: { summary: '删除公告', tags, querystring: q, body: noticeIdQuerySchema, response: { 200: done } } },
    async (request) => {
      await service.remove(request.staff, request.body.id, request.ip);
      return ok(null);
    },
  );
};

export default noticesAdminRoutes;
