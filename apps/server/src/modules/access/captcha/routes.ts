import { captchaAudioQuerySchema, captchaSchema, envelopeSchema, ErrorCode, ok, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../../lib/app-error';

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
  app.get(
    '/getCaptchaAudio',
    {
      // A few replays per captcha; far fewer than getCode's, as each answer is a small WAV made afresh.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        summary: '语音验证码（与 getCode 的图形验证码同一个码，中文数字朗读加背景噪声；同样一次有效、5 分钟过期）',
        tags: ['captcha'],
        querystring: captchaAudioQuerySchema,
      },
    },
    async (request, reply) => {
      const wav = await app.services.captcha.audio(request.office.id, request.query.captchaId);
      if (!wav) throw new AppError(ErrorCode.CaptchaInvalid);
      return reply.header('Cache-Control', 'no-store').header('Content-Type', 'audio/wav').send(wav);
    },
  );
};

export default captchaRoutes;
