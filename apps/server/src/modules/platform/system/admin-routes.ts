import {
  agreementInputSchema,
  envelopeSchema,
  menuInputSchema,
  officeAdminSchema,
  officeQuerySchema,
  officeSettingsInputSchema,
  ok,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { STAFF_ROUTE } from '../../access/console-deps';

/** Console: the office's settings, menu and agreement (admins write, reviewers read). */
const systemAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.systemAdmin;
  const tags = ['console'];
  const q = officeQuerySchema;
  const done = envelopeSchema(z.null());

  app.get(
    '/getOfficeSettings',
    {
      config: STAFF_ROUTE,
      schema: { summary: '系统设置、菜单与注册协议', tags, querystring: q, response: { 200: envelopeSchema(officeAdminSchema) } },
    },
    async (request) => ok(await service.get(request.office.id)),
  );
  app.post(
    '/updateOfficeSettings',
    {
      config: STAFF_ROUTE,
      schema: { summary: '修改系统设置（网站名称等）', tags, querystring: q, body: officeSettingsInputSchema, response: { 200: done } },
    },
    async (request) => {
      await service.updateSettings(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/updateMenu',
    {
      config: STAFF_ROUTE,
      schema: { summary: '修改候选人站点底部菜单', tags, querystring: q, body: menuInputSchema, response: { 200: done } },
    },
    async (request) => {
      await service.updateMenu(request.staff, request.body.menu, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/updateAgreement',
    {
      config: STAFF_ROUTE,
      schema: { summary: '修改注册协议（富文本，保存时净化）', tags, querystring: q, body: agreementInputSchema, response: { 200: done } },
    },
    async (request) => {
      await service.updateAgreement(request.staff, request.body, request.ip);
      return ok(null);
    },
  );
};

export default systemAdminRoutes;
