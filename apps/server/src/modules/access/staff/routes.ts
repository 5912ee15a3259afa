import { envelopeSchema, officeQuerySchema, ok, staffAuthResultSchema, staffLoginSchema, staffProfileSchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** Console sign-in: `/api/admin/login`, `logout`, `getProfile`. */
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
      config: { auth: 'staff' },
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
};

export default staffRoutes;
