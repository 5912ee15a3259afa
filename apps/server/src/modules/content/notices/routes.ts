import {
  envelopeSchema,
  noticeIdQuerySchema,
  noticeListQuerySchema,
  noticePageSchema,
  noticeSchema,
  officeQuerySchema,
  pageQuerySchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheKey } from '../../../plugins/public-cache';

const noticesRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.notices;
  const tags = ['notices'];
  app.get(
    '/getNoticeList',
    {
      schema: {
        summary: '通知公告列表（置顶优先，分页）与已发布考试的招考公告；examId：只列该考试的',
        tags,
        querystring: pageQuerySchema.extend(officeQuerySchema.shape).extend(noticeListQuerySchema.shape),
        response: { 200: envelopeSchema(noticePageSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getNoticeList', request.query), () =>
        service.page(request.office.id, request.query.page, request.query.pageSize, request.query.examId),
      ),
  );
  app.get(
    '/getNoticeDetail',
    {
      schema: {
        summary: '通知公告详情',
        tags,
        querystring: noticeIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(noticeSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getNoticeDetail', request.query), () =>
        service.detail(request.office.id, request.query.id),
      ),
  );
};

export default noticesRoutes;
