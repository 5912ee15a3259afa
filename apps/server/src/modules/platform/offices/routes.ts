import {
  auditChainStateSchema,
  captchaSchema,
  createOfficeAdminSchema,
  envelopeSchema,
  ErrorCode,
  officeAdminResultSchema,
  ok,
  ownPasswordChangeSchema,
  pageQuerySchema,
  passwordChangedSchema,
  platformAuditPageSchema,
  platformLoginResultSchema,
  platformLoginSchema,
  platformCaptchaAudioQuerySchema,
  platformOfficeListSchema,
  saveOfficeSchema,
} from '@zhikaoyun/shared';
import type { FastifyContextConfig } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../lib/app-error';

/** The operator's calls belong to no office; the session is a platform one (plugins/auth.ts). */
const PLATFORM: FastifyContextConfig = { tenant: false, auth: 'platform' };
/** What a session with a one-time password may still do: change it, or sign out. */
const BEFORE_CHANGE: FastifyContextConfig = { ...PLATFORM, openBeforePasswordChange: true };

/** The platform console's API: `/api/platform/*` (issue 31). */
const platformRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.platform;
  const tags = ['platform'];

  app.get(
    '/getCode',
    {
      config: { tenant: false, rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: { summary: '平台登录图形验证码（一次有效，5 分钟过期）', tags, response: { 200: envelopeSchema(captchaSchema) } },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return ok(await service.captcha.create(0));
    },
  );
  app.get(
    '/getCaptchaAudio',
    {
      config: { tenant: false, rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { summary: '平台登录语音验证码（与 getCode 同一个码）', tags, querystring: platformCaptchaAudioQuerySchema },
    },
    async (request, reply) => {
      const wav = await service.captcha.audio(0, request.query.captchaId);
      if (!wav) throw new AppError(ErrorCode.CaptchaInvalid);
      return reply.header('Cache-Control', 'no-store').header('Content-Type', 'audio/wav').send(wav);
    },
  );
  app.post(
    '/login',
    {
      // Per address, on top of the failure counters, as the staff sign-in: every attempt is an argon2 hash.
      config: { tenant: false, rateLimit: { max: 100, timeWindow: '10 minutes' } },
      schema: {
        summary: '平台管理员登录',
        tags,
        body: platformLoginSchema,
        response: { 200: envelopeSchema(platformLoginResultSchema) },
      },
    },
    async (request) => ok(await service.login(request.body, request.ip)),
  );
  app.post(
    '/logout',
    { config: BEFORE_CHANGE, schema: { summary: '平台管理员退出', tags, response: { 200: envelopeSchema(z.null()) } } },
    async (request) => {
      await service.logout(request.operator, request.ip);
      return ok(null);
    },
  );
  app.post(
    '/changePassword',
    {
      config: { ...BEFORE_CHANGE, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: {
        summary: '平台管理员修改密码（结束所有会话，答复新会话的令牌）',
        tags,
        body: ownPasswordChangeSchema,
        response: { 200: envelopeSchema(passwordChangedSchema) },
      },
    },
    async (request) => ok(await service.changePassword(request.operator, request.body, request.ip)),
  );
  app.get(
    '/getOfficeList',
    {
      config: PLATFORM,
      schema: { summary: '考试机构列表（仅数量，不含考生信息）', tags, response: { 200: envelopeSchema(platformOfficeListSchema) } },
    },
    async () => ok(await service.offices()),
  );
  app.post(
    '/saveOffice',
    {
      config: PLATFORM,
      schema: {
        summary: '新建或修改考试机构（代码、名称、域名、暂停/恢复）',
        tags,
        body: saveOfficeSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number() })) },
      },
    },
    async (request) => ok(await service.saveOffice(request.operator, request.body, request.ip)),
  );
  app.post(
    '/createOfficeAdmin',
    {
      // Makes and hashes a one-time password.
      config: { ...PLATFORM, rateLimit: { max: 60, timeWindow: '10 minutes' } },
      schema: {
        summary: '创建考试机构管理员（一次性密码，仅显示一次）',
        tags,
        body: createOfficeAdminSchema,
        response: { 200: envelopeSchema(officeAdminResultSchema) },
      },
    },
    async (request) => ok(await service.createOfficeAdmin(request.operator, request.body, request.ip)),
  );
  app.get(
    '/getAuditLog',
    {
      config: PLATFORM,
      schema: { summary: '平台操作日志', tags, querystring: pageQuerySchema, response: { 200: envelopeSchema(platformAuditPageSchema) } },
    },
    async (request) => ok(await service.auditLog(request.query.page, request.query.pageSize)),
  );
  app.get(
    '/getAuditChainState',
    { config: PLATFORM, schema: { summary: '平台审计链状态', tags, response: { 200: envelopeSchema(auditChainStateSchema) } } },
    async () => ok(await service.auditChainState()),
  );
};

export default platformRoutes;
