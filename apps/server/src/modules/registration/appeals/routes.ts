import {
  appealItemSchema,
  appealListQuerySchema,
  envelopeSchema,
  ErrorCode,
  officeQuerySchema,
  ok,
  resolveAppealResultSchema,
  resolveAppealSchema,
  submitAppealSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';

/** The candidate's side, under /api: file an appeal (captcha, per-address limit). */
export const appealsCandidateRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.appeals;
  app.post(
    '/submitAppeal',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 hour' } },
      schema: {
        summary: '身份证号被他人注册：提交申诉',
        tags: ['appeals'],
        querystring: officeQuerySchema,
        body: submitAppealSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      if (!(await app.services.captcha.verify(request.office.id, request.body.captchaId, request.body.captcha))) {
        throw new AppError(ErrorCode.CaptchaInvalid);
      }
      await service.submit(request.office.id, request.body);
      return ok(null);
    },
  );
};

/** The console's side, under /api/admin: admins only (access/permissions.ts). */
export const appealsAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.appeals;
  const admin = { auth: 'staff' as const };
  const tags = ['console'];
  app.get(
    '/getAppealList',
    {
      config: admin,
      schema: {
        summary: '身份冒用申诉列表（仅管理员）',
        tags,
        querystring: appealListQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(appealItemSchema), total: z.number() })) },
      },
    },
    async (request) => ok(await service.list(request.staff, request.query)),
  );
  app.post(
    '/resolveAppeal',
    {
      // A reset hashes a new one-time password (argon2): a few a minute is all an admin needs.
      config: { ...admin, rateLimit: { max: 60, timeWindow: '10 minutes' } },
      schema: {
        summary: '处理申诉：重置账号（返回一次性密码）或驳回（须写原因）',
        tags,
        querystring: officeQuerySchema,
        body: resolveAppealSchema,
        response: { 200: envelopeSchema(resolveAppealResultSchema) },
      },
    },
    async (request) => ok(await service.resolve(request.staff, request.body, request.ip)),
  );
};
