import { captchaSchema, envelopeSchema, ok, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const captchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/getCode',
    {
      // Per address, and generous: a school lab shares one address and every form load asks for one.
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: {
        summary: '图形验证码（一次有效，5 分钟过期）',
        tags: ['captcha'],
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(captchaSchema) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return ok(await app.services.captcha.create(request.office.id));
    },
  );
};

export default captchaRoutes;
