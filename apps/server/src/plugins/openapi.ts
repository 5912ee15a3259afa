import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the routes' zod schemas, and its UI at /api/docs. */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: '智考云 API',
          description:
            '每个 /api 调用都以信封返回：{ success, errorCode?, msg?, data? }。业务与校验失败以 HTTP 200、success:false 返回；' +
            '请求通过 officeId 或 officeCode 查询参数指明考试机构，未指明时使用默认机构。',
          version: '1.0.0',
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      uiConfig: { docExpansion: 'list', deepLinking: false },
    });
  },
  { name: 'openapi' },
);
