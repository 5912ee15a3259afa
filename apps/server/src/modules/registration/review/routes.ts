import {
  auditEntrySchema,
  bulkApproveSchema,
  envelopeSchema,
  examIdOnlyQuerySchema,
  idQuerySchema,
  officeQuerySchema,
  ok,
  deepPageQuerySchema,
  reviewDecisionSchema,
  reviewDetailSchema,
  reviewItemSchema,
  reviewListQuerySchema,
  rejectionReasonsSchema,
  revealApplicationSchema,
  revealedIdentitySchema,
  statisticsSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditReaderScope } from '../../access/scope';
import { attachment } from '../../../lib/download';

/** How many full identities one staff member may open: enough to check a day's doubtful records, too few to copy a queue. */
export const REVEAL_LIMIT = { max: 30, timeWindow: '10 minutes' } as const;

/** The console's review, statistics, export and audit calls, under /api/admin. */
const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const { review: service, audit } = app.services;
  const tags = ['console'];
  const staff = { auth: 'staff' as const };
  const q = officeQuerySchema;

  // POST: the keyword may be an ID number, and an ID number never travels in a URL (proxies log URLs).
  app.post(
    '/getApplicationList',
    {
      config: staff,
      schema: {
        summary: '审核队列（身份证号、手机号脱敏）',
        tags,
        querystring: q,
        body: reviewListQuerySchema,
        response: { 200: envelopeSchema(z.object({ list: z.array(reviewItemSchema), total: z.number() })) },
      },
    },
    async (request) => ok(await service.list(request.staff, request.body)),
  );
  app.get(
    '/getApplicationDetail',
    {
      config: staff,
      schema: {
        summary: '报名详情（含照片与审核记录；身份证号、手机号脱敏）',
        tags,
        querystring: idQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(reviewDetailSchema) },
      },
    },
    async (request) => ok(await service.detail(request.staff, request.query.id, request.ip)),
  );
  app.post(
    '/revealApplication',
    {
      config: {
        ...staff,
        // Counted per staff member, after sign-in (a new session or another address starts no new count).
        rateLimit: {
          ...REVEAL_LIMIT,
          hook: 'preHandler',
          keyGenerator: (request) => `reveal:${request.staff.officeId}:${request.staff.id}`,
        },
      },
      schema: {
        summary: '查看完整身份证号与手机号（逐条、留痕、限频）',
        tags,
        querystring: q,
        body: revealApplicationSchema,
        response: { 200: envelopeSchema(revealedIdentitySchema) },
      },
    },
    async (request) => ok(await service.reveal(request.staff, request.body.id, request.ip)),
  );
  app.post(
    '/reviewApplication',
    {
      config: staff,
      schema: {
        summary: '审核：通过，或不通过并写明原因（final: 不得再报）',
        tags,
        querystring: q,
        body: reviewDecisionSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      const { applicationId, decision, reason, final } = request.body;
      await service.decide(request.staff, applicationId, decision, reason, request.ip, final);
      return ok(null);
    },
  );
  app.get(
    '/getRejectionReasons',
    {
      config: staff,
      schema: {
        summary: '常用不通过原因（未设置时为默认原因）',
        tags,
        querystring: q,
        response: { 200: envelopeSchema(rejectionReasonsSchema) },
      },
    },
    async (request) => ok(await service.rejectionReasons(request.staff.officeId)),
  );
  app.post(
    '/saveRejectionReasons',
    {
      config: staff,
      schema: {
        summary: '修改常用不通过原因（仅管理员）',
        tags,
        querystring: q,
        body: rejectionReasonsSchema,
        response: { 200: envelopeSchema(rejectionReasonsSchema) },
      },
    },
    async (request) => ok(await service.saveRejectionReasons(request.staff, request.body, request.ip)),
  );
  app.post(
    '/bulkApprove',
    {
      config: staff,
      schema: {
        summary: '批量审核通过',
        tags,
        querystring: q,
        body: bulkApproveSchema,
        response: { 200: envelopeSchema(z.object({ approved: z.number(), skipped: z.number() })) },
      },
    },
    async (request) => ok(await service.bulkApprove(request.staff, request.body.applicationIds, request.ip)),
  );
  app.get(
    '/getStatistics',
    {
      config: staff,
      schema: {
        summary: '报名统计（按岗位、按日）',
        tags,
        querystring: examIdOnlyQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(statisticsSchema) },
      },
    },
    async (request) => ok(await service.statistics(request.staff, request.query.examId, request.office.timeZone)),
  );
  app.get(
    '/exportApplications',
    { config: staff, schema: { summary: '导出报名信息（.xlsx）', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) } },
    async (request, reply) => {
      const { rows, file } = await service.export(request.staff, request.query.examId, request.ip, request.office.timeZone);
      return (
        reply
          // Streamed: no Content-Length, so the console shows progress against the rows to come.
          .header('X-Export-Rows', String(rows))
          .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
          .header('Content-Disposition', attachment(`applications-${request.query.examId}`, `报名信息-${request.query.examId}`, 'xlsx'))
          .send(file)
      );
    },
  );
  app.get(
    '/getAuditLog',
    {
      config: staff,
      schema: {
        summary: '审计日志（审计管理员）',
        tags,
        querystring: deepPageQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(auditEntrySchema), total: z.number() })) },
      },
    },
    async (request) => ok(await audit.page(auditReaderScope(request.staff), request.query.page, request.query.pageSize)),
  );
};

export default reviewRoutes;
