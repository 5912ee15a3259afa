import {
  confirmTotpSchema,
  envelopeSchema,
  officeQuerySchema,
  ok,
  recoveryCodesSchema,
  resetStaffTotpSchema,
  totpSetupSchema,
  totpStatusSchema,
} from '@zhikaoyun/shared';
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FactorOwner } from './service';

/** A staff member's own second factor: open while its enrollment is due (plugins/auth.ts). */
const OWN: FastifyContextConfig = { auth: 'staff', openBeforeTotpEnrollment: true };

const ownerOf = (request: FastifyRequest): FactorOwner => ({
  kind: 'staff',
  id: request.staff.id,
  officeId: request.office.id,
  name: request.staff.name,
});

/** 两步验证 of office staff: `/api/admin/startTotp`, `confirmTotp`, `getTotpStatus`, `resetStaffTotp`. */
const totpRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.secondFactor;
  const tags = ['console'];
  const q = officeQuerySchema;

  app.get(
    '/getTotpStatus',
    {
      config: OWN,
      schema: { summary: '本人两步验证状态', tags, querystring: q, response: { 200: envelopeSchema(totpStatusSchema) } },
    },
    async (request) => ok(await service.status(ownerOf(request), request.staff.role, request.office.staffTotpRequired)),
  );
  app.post(
    '/startTotp',
    {
      // Draws a QR code: a few a minute are all a person needs.
      config: { ...OWN, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: {
        summary: '开始绑定两步验证：新密钥、otpauth 地址和二维码（确认前可重新获取）',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(totpSetupSchema) },
      },
    },
    async (request) => ok(await service.start(ownerOf(request), request.office.name, request.staff.username)),
  );
  app.post(
    '/confirmTotp',
    {
      // Hashes ten recovery codes; and a guess per call at a code the caller can read anyway.
      config: { ...OWN, rateLimit: { max: 30, timeWindow: '10 minutes' } },
      schema: {
        summary: '确认两步验证：输入 App 中的动态验证码，得到 10 个恢复码（仅显示一次）',
        tags,
        querystring: q,
        body: confirmTotpSchema,
        response: { 200: envelopeSchema(recoveryCodesSchema) },
      },
    },
    async (request) => ok(await service.confirm(ownerOf(request), request.body.code, request.ip)),
  );
  app.post(
    '/resetStaffTotp',
    {
      // Who may: the permission table's row (the security role; never one's own, in the service).
      config: { auth: 'staff' },
      schema: {
        summary: '重置其他人员的两步验证（记入审计日志，该人员随即退出登录）',
        tags,
        querystring: q,
        body: resetStaffTotpSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.resetStaff({ ...request.staff, officeId: request.office.id }, request.body.id, request.ip);
      return ok(null);
    },
  );
};

export default totpRoutes;
