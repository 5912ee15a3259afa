import {
  announcementAudienceSchema,
  announcementPreviewSchema,
  announcementResultSchema,
  announcementSchema,
  envelopeSchema,
  notificationSettingsSchema,
  officeQuerySchema,
  ok,
  outboxListSchema,
  outboxQuerySchema,
  retrySmsSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Console: announcements to an exam's candidates, the SMS outbox, the office's message settings. */
const notificationsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.notifications;
  const tags = ['console'];
  const q = officeQuerySchema;
  const actor = (r: { staff: { id: number; officeId: number; name: string }; ip: string }) => ({
    id: r.staff.id,
    officeId: r.staff.officeId,
    name: r.staff.name,
    ip: r.ip,
  });

  app.post(
    '/previewAnnouncement',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '考务通知：将收到的人数',
        tags,
        querystring: q,
        body: announcementAudienceSchema,
        response: { 200: envelopeSchema(announcementPreviewSchema) },
      },
    },
    async (request) => ok(await service.preview(request.staff.officeId, request.body.examId, request.body.audience)),
  );
  app.post(
    '/sendAnnouncement',
    {
      config: { ...STAFF_ROUTE, rateLimit: { max: 20, timeWindow: '10 minutes' } },
      schema: {
        summary: '发送考务通知（站内消息，可同时发短信）',
        tags,
        querystring: q,
        body: announcementSchema,
        response: { 200: envelopeSchema(announcementResultSchema) },
      },
    },
    async (request) => ok(await service.announce(actor(request), request.body)),
  );
  app.get(
    '/getSmsOutbox',
    {
      // Every SMS text of the office, whatever unit its candidate applied to: admins only.
      config: STAFF_ROUTE,
      schema: {
        summary: '短信发送记录（号码脱敏）',
        tags,
        querystring: outboxQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(outboxListSchema) },
      },
    },
    async (request) => ok(await service.outbox(request.staff, request.query.status, request.query.page, request.query.pageSize)),
  );
  app.post(
    '/retrySms',
    {
      config: STAFF_ROUTE,
      schema: { summary: '重新发送失败的短信', tags, querystring: q, body: retrySmsSchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await service.retry(actor(request), request.body.id);
      return ok(null);
    },
  );
  app.get(
    '/getNotificationSettings',
    {
      config: STAFF_ROUTE,
      schema: { summary: '消息设置', tags, querystring: q, response: { 200: envelopeSchema(notificationSettingsSchema) } },
    },
    async (request) => ok(await service.settings(request.staff.officeId)),
  );
  app.post(
    '/saveNotificationSettings',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '修改消息设置（哪些消息发短信、是否需要手机验证）',
        tags,
        querystring: q,
        body: notificationSettingsSchema,
        response: { 200: envelopeSchema(notificationSettingsSchema) },
      },
    },
    async (request) => ok(await service.saveSettings(actor(request), request.body, request.ip)),
  );
};

export default notificationsAdminRoutes;
