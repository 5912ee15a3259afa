import { envelopeSchema, officeQuerySchema, ok, staffDisableSchema, staffInputSchema, staffUserSchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ROUTE, consoleDeps } from '../audit/console-deps';
import { createStaffAdminService } from './admin-service';

/** Console: admins manage the office's staff users. */
const staffAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createStaffAdminService({ ...consoleDeps(app), sessions: app.sessions });
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getStaffList',
    {
      config: ADMIN_ROUTE,
      schema: { summary: '考务人员列表（仅管理员）', tags, querystring: q, response: { 200: envelopeSchema(z.array(staffUserSchema)) } },
    },
    async (request) => ok(await service.list(request.office.id)),
  );
  app.post(
    '/saveStaff',
    {
      config: ADMIN_ROUTE,
      schema: {
        summary: '新建或修改考务人员（可重置密码）',
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
      config: ADMIN_ROUTE,
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
