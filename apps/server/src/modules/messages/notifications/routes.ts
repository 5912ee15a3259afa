import {
  envelopeSchema,
  messageListQuerySchema,
  messageListSchema,
  officeQuerySchema,
  ok,
  readMessageSchema,
  sendSmsCodeSchema,
  sentSmsCodeSchema,
  smsConfigSchema,
  unreadCountSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The candidate's inbox, and the phone verification code registration and recovery may need. */
const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.notifications;
  const codes = app.services.smsCodes;
  const tags = ['notifications'];
  const auth = { auth: 'candidate' as const };

  app.get(
    '/getMessageList',
    {
      config: auth,
      schema: {
        summary: '我的消息（最新在前；unread 为未读总数）',
        tags,
        querystring: messageListQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(messageListSchema) },
      },
    },
    async (request) => ok(await service.page(request.office.id, request.candidate.subjectId, request.query.page, request.query.pageSize)),
  );

  app.get(
    '/getUnreadCount',
    {
      config: auth,
      schema: { summary: '未读消息数（角标）', tags, querystring: officeQuerySchema, response: { 200: envelopeSchema(unreadCountSchema) } },
    },
    async (request) => ok({ unread: await service.unread(request.office.id, request.candidate.subjectId) }),
  );

  app.post(
    '/readMessage',
    {
      config: auth,
      schema: {
        summary: '标为已读：{id} 一条，{ids} 我的消息刚显示的几条，{all: true} 全部',
        tags,
        querystring: officeQuerySchema,
        body: readMessageSchema,
        response: { 200: envelopeSchema(unreadCountSchema) },
      },
    },
    async (request) => {
      const body = request.body;
      return ok(
        await service.read(request.office.id, request.candidate.subjectId, 'id' in body ? body.id : 'ids' in body ? body.ids : 'all'),
      );
    },
  );

  app.get(
    '/getSmsConfig',
    {
      schema: {
        summary: '注册和找回密码是否需要短信验证码',
        tags,
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(smsConfigSchema) },
      },
    },
    async (request) => ok({ phoneVerification: (await service.settings(request.office.id)).phoneVerification }),
  );

  app.post(
    '/sendSmsCode',
    {
      // Per address, on top of the per-phone limits the service keeps in the database.
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: {
        summary: '发送短信验证码（注册、找回密码）',
        tags,
        querystring: officeQuerySchema,
        body: sendSmsCodeSchema,
        response: { 200: envelopeSchema(sentSmsCodeSchema) },
      },
    },
    async (request) => ok(await codes.send(request.office.id, request.body, request.ip)),
  );
};

export default notificationsRoutes;
