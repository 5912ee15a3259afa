import {
  envelopeSchema,
  officeQuerySchema,
  ok,
  ownPasswordChangeSchema,
  passwordChangedSchema,
  staffAuthResultSchema,
  staffLoginSchema,
  staffProfileSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Console sign-in: `/api/admin/login`, `logout`, `getProfile`, `changePassword`. */
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  const { staff: service, audit } = app.services;
  const tags = ['console'];

  app.post(
    '/login',
    {
      // Per address, on top of the failure counters: every attempt is an argon2 hash.
      config: { rateLimit: { max: 100, timeWindow: '10 minutes' } },
      schema: {
        summary: '考务人员登录',
        tags,
        querystring: officeQuerySchema,
        body: staffLoginSchema,
        response: { 200: envelopeSchema(staffAuthResultSchema) },
      },
    },
    async (request) => ok(await service.login(request.office.id, request.body, request.ip)),
  );
  app.post(
    '/logout',
    {
      config: { auth: 'staff', openBeforePasswordChange: true },
      schema: { summary: '考务人员退出', tags, querystring: officeQuerySchema, response: { 200: envelopeSchema(z.null()) } },
    },
    async (request) => {
      await app.services.sessions.revoke(request.staff.sessionId);
      await audit.record(
        { id: request.staff.id, officeId: request.office.id, name: request.staff.name },
        '退出',
        `staff:${request.staff.id}`,
        '',
        request.ip,
      );
      return ok(null);
    },
  );
  app.get(
    '/getProfile',
    {
      config: { auth: 'staff' },
      schema: { summary: '当前考务人员', tags, querystring: officeQuerySchema, response: { 200: envelopeSchema(staffProfileSchema) } },
    },
    async (request) => ok(await service.profile(request.office.id, request.staff.id)),
  );
  app.post(
    '/changePassword',
    {
      // Verifies and hashes a password; also the one call a one-time password opens.
      config: { auth: 'staff', openBeforePasswordChange: true, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: {
        summary: '考务人员修改本人密码（结束所有会话，答复新会话的令牌）',
        tags,
        querystring: officeQuerySchema,
        body: ownPasswordChangeSchema,
        response: { 200: envelopeSchema(passwordChangedSchema) },
      },
    },
    async (request) => ok(await service.changePassword({ ...request.staff, officeId: request.office.id }, request.body, request.ip)),
  );
};

export default staffRoutes;
