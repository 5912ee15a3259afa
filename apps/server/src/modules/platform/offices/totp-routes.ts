import { confirmTotpSchema, envelopeSchema, ok, recoveryCodesSchema, totpSetupSchema, totpStatusSchema } from '@zhikaoyun/shared';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FactorOwner } from '../../access/totp/service';

/** The operator's own second factor: no office, and open while its enrollment is due. */
const OWN: FastifyContextConfig = { tenant: false, auth: 'platform', openBeforeTotpEnrollment: true };

/** Whose factor the authenticator app shows it as. */
const ISSUER = '智考云平台';

const ownerOf = (request: FastifyRequest): FactorOwner => ({ kind: 'operator', id: request.operator.id, name: request.operator.name });

/** 两步验证 of the platform operator: `/api/platform/startTotp`, `confirmTotp`, `getTotpStatus`. */
const platformTotpRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.secondFactor;
  const tags = ['platform'];

  app.get(
    '/getTotpStatus',
    { config: OWN, schema: { summary: '平台管理员两步验证状态', tags, response: { 200: envelopeSchema(totpStatusSchema) } } },
    async (request) => ok(await service.status(ownerOf(request), undefined, false)),
  );
  app.post(
    '/startTotp',
    {
      config: { ...OWN, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: { summary: '平台管理员开始绑定两步验证', tags, response: { 200: envelopeSchema(totpSetupSchema) } },
    },
    async (request) => ok(await service.start(ownerOf(request), ISSUER, request.operator.name)),
  );
  app.post(
    '/confirmTotp',
    {
      config: { ...OWN, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: {
        summary: '平台管理员确认两步验证，得到 10 个恢复码（仅显示一次）',
        tags,
        body: confirmTotpSchema,
        response: { 200: envelopeSchema(recoveryCodesSchema) },
      },
    },
    async (request) => ok(await service.confirm(ownerOf(request), request.body.code, request.ip)),
  );
};

export default platformTotpRoutes;
