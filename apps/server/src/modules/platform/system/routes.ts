import { envelopeSchema, menuSchema, officeQuerySchema, systemSettingSchema, treatyDescSchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cacheKey } from '../../../plugins/public-cache';

/** The spec's calls for the office's settings, menu and registration agreement (public, cached). */
const systemRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.system;

  app.get(
    '/getWSystem',
    {
      schema: {
        summary: '系统设置（含网站名称 webname）',
        tags: ['system'],
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(systemSettingSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getWSystem'), () => service.getSystemSetting(request.office.id)),
  );

  app.get(
    '/getMenu',
    {
      schema: {
        summary: '菜单（候选人站点底部导航）',
        tags: ['system'],
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(menuSchema) },
      },
    },
    async (request, reply) => app.publicCache.serve(request, reply, cacheKey('getMenu'), () => service.getMenu(request.office.id)),
  );

  app.get(
    '/getTreatyDesc',
    {
      schema: {
        summary: '注册协议',
        tags: ['system'],
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(treatyDescSchema) },
      },
    },
    async (request, reply) =>
      app.publicCache.serve(request, reply, cacheKey('getTreatyDesc'), () => service.getTreatyDesc(request.office.id)),
  );
};

export default systemRoutes;
