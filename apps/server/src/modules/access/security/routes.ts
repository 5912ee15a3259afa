import { envelopeSchema, officeQuerySchema, ok, staffIdSchema, staffSecurityRowSchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../console-deps';

/** Console, 安全管理 (the security role): `getStaffSecurity`, `unlockStaff`, `endStaffSessions` under /api/admin. */
const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.security;
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getStaffSecurity',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '人员登录安全状态（失败次数、锁定、在线会话；安全管理员）',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(z.array(staffSecurityRowSchema)) },
      },
    },
    async (request) => ok(await service.list(request.office.id)),
  );
  app.post(
    '/unlockStaff',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '解锁人员（清除登录失败计数，留痕）',
        tags,
        querystring: q,
        body: staffIdSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.unlock(request.staff, request.body.id, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/endStaffSessions',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '结束人员的全部会话（须重新登录，留痕）',
        tags,
        querystring: q,
        body: staffIdSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.endSessions(request.staff, request.body.id, request.ip);
      return ok(null);
    },
  );
};

export default securityRoutes;
