import {
  auditEntrySchema,
  bulkApproveSchema,
  envelopeSchema,
  examIdOnlyQuerySchema,
  idQuerySchema,
  officeQuerySchema,
  ok,
  pageQuerySchema,
  reviewDecisionSchema,
  reviewDetailSchema,
  reviewItemSchema,
  reviewListQuerySchema,
  statisticsSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createAccountsRepository } from '../accounts/repository';
import { applicationsServiceFor } from '../applications/wire';
import { createAuditRepository } from '../audit/repository';
import { createAuditService } from '../audit/service';
import { createReviewRepository } from './repository';
import { createReviewService } from './service';

/** The console's review, statistics, export and audit calls, under /api/admin. */
const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const audit = createAuditService(createAuditRepository(app.db));
  const { service: applications, repo: applicationsRepo } = applicationsServiceFor(app.db);
  const service = createReviewService({
    repo: createReviewRepository(app.db),
    findPhoto: createAccountsRepository(app.db).findPhoto,
    applications,
    applicationsRepo,
    cipher: app.cipher,
    audit,
  });
  const tags = ['console'];
  const staff = { auth: 'staff' as const };
  const q = officeQuerySchema;

  app.get(
    '/getApplicationList',
    {
      config: staff,
      schema: {
        summary: '审核队列（身份证号、手机号脱敏）',
        tags,
        querystring: reviewListQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(reviewItemSchema), total: z.number() })) },
      },
    },
    async (request) => ok(await service.list(request.staff, request.query)),
  );
  app.get(
    '/getApplicationDetail',
    {
      config: staff,
      schema: {
        summary: '报名详情（含照片与审核记录）',
        tags,
        querystring: idQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(reviewDetailSchema) },
      },
    },
    async (request) => ok(await service.detail(request.staff, request.query.id, request.ip)),
  );
  app.post(
    '/reviewApplication',
    {
      config: staff,
      schema: {
        summary: '审核：通过，或不通过并写明原因',
        tags,
        querystring: q,
        body: reviewDecisionSchema,
        response: { 200: envelopeSchema(z.null()) },
      },
    },
    async (request) => {
      await service.decide(request.staff, request.body.applicationId, request.body.decision, request.body.reason, request.ip);
      return ok(null);
    },
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
    async (request) => ok(await service.statistics(request.staff, request.query.examId)),
  );
  app.get(
    '/exportApplications',
    { config: staff, schema: { summary: '导出报名信息（.xlsx）', tags, querystring: examIdOnlyQuerySchema.extend(q.shape) } },
    async (request, reply) => {
      const file = await service.export(request.staff, request.query.examId, request.ip);
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header(
          'Content-Disposition',
          `attachment; filename="applications-${request.query.examId}.xlsx"; filename*=UTF-8''${encodeURIComponent('报名信息')}-${request.query.examId}.xlsx`,
        )
        .send(file);
    },
  );
  app.get(
    '/getAuditLog',
    {
      config: { ...staff, roles: ['admin'] },
      schema: {
        summary: '审计日志（仅管理员）',
        tags,
        querystring: pageQuerySchema.extend(q.shape),
        response: { 200: envelopeSchema(z.object({ list: z.array(auditEntrySchema), total: z.number() })) },
      },
    },
    async (request) => ok(await audit.page(request.office.id, request.query.page, request.query.pageSize)),
  );
};

export default reviewRoutes;
