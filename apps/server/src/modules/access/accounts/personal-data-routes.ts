import { deleteAccountSchema, envelopeSchema, myDataSchema, officeQuerySchema, ok } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The personal center's data rights: download my data, delete my account. */
const personalDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.personalData;
  const tags = ['accounts'];
  const q = officeQuerySchema;

  app.get(
    '/exportMyData',
    {
      config: { auth: 'candidate', rateLimit: { max: 20, timeWindow: '10 minutes' } },
      schema: {
        summary: '下载我的个人信息（JSON，含完整身份证号与照片）',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(myDataSchema) },
      },
    },
    async (request, reply) => {
      const data = await service.export(request.office.id, request.candidate.subjectId);
      reply.header('Content-Disposition', `attachment; filename="my-data-${data.account.id}.json"`);
      return ok(data);
    },
  );

  app.post(
    '/deleteAccount',
    {
      // The password is checked (lib/failure-guard: a few tries per session and address); per
      // address on top, because each try is an argon2 hash.
      config: { auth: 'candidate', rateLimit: { max: 10, timeWindow: '10 minutes' } },
      schema: {
        summary: '注销账号（需输入密码；有待审核或已通过的报名时不可注销）',
        tags,
        querystring: q,
        body: deleteAccountSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.deleteAccount(
        request.office.id,
        request.candidate.subjectId,
        request.candidate.sessionId,
        request.body.password,
        request.ip,
      );
      request.log.info({ candidateId: request.candidate.subjectId }, 'candidate account deleted');
      return ok(null);
    },
  );
};

export default personalDataRoutes;
