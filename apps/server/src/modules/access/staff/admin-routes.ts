import { envelopeSchema, officeQuerySchema, ok, staffDisableSchema, staffInputSchema, staffUserSchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../console-deps';

/** Console: admins manage the office's staff users. */
const staffAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.staffAdmin;
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getStaffList',
    {
      config: STAFF_ROUTE,
      schema: { summary: '考务人员列表（仅管理员）', tags, querystring: q, response: { 200: envelopeSchema(z.array(staffUserSchema)) } },
    },
    async (request) => ok(await service.list(request.office.id)),
  );
  app.post(
    '/saveStaff',
    {
      // A new password is an argon2 hash: a few per minute is all an admin needs.
      config: { ...STAFF_ROUTE, rateLimit: { max: 60, timeWindow: '10 minutes' } },
      schema: {
        summary: '新建或修改考务人员（可改用户名、重置密码）',
        tags,
        querystring: q,
        body: staffInputSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(await service.save(request.staff, request.body, request.ip)),
  );
  app.post(
    '/setStaffDisabled',
    {
      config: STAFF_ROUTE,
      schema: {
        summary: '停用或启用考务人员',
        tags,
        querystring: q,
        body: staffDisableSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.setDisabled(request.staff, request.body.id, request.body.disabled, request.ip);
      return ok(null);
    },
  );
};

export default staffAdminRoutes;
