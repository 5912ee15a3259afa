import {
  applicationSchema,
  applyStatusSchema,
  envelopeSchema,
  examIdBodySchema,
  examIdQuerySchema,
  officeQuerySchema,
  ok,
  saveApplicationSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { applicationsServiceFor } from './wire';

/** The candidate's own application: draft, submit, withdraw and status. */
const applicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { service } = applicationsServiceFor(app.db);
  const tags = ['applications'];
  const auth = { auth: 'candidate' as const };

  app.get(
    '/getApplication',
    {
      config: auth,
      schema: {
        summary: '本人在该考试的报名（没有则为 null）',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(applicationSchema.nullable()) },
      },
    },
    async (request) => ok(await service.get(request.office.id, request.candidate.subjectId, request.query.examId)),
  );
  app.post(
    '/saveApplication',
    {
      config: auth,
      schema: {
        summary: '保存报名草稿（边填边存）',
        tags,
        querystring: officeQuerySchema,
        body: saveApplicationSchema,
        response: { 200: envelopeSchema(applicationSchema) },
      },
    },
    async (request) => ok(await service.save(request.office.id, request.candidate.subjectId, request.body)),
  );
  app.post(
    '/submitApplication',
    {
      config: auth,
      schema: {
        summary: '提交报名（重复提交不产生第二条记录）',
        tags,
        querystring: officeQuerySchema,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => ok(await service.submit(request.office.id, request.candidate.subjectId, request.body.examId)),
  );
  app.post(
    '/withdrawApplication',
    {
      config: auth,
      schema: {
        summary: '撤回未审核的报名（回到草稿）',
        tags,
        querystring: officeQuerySchema,
        body: examIdBodySchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => ok(await service.withdraw(request.office.id, request.candidate.subjectId, request.body.examId)),
  );
  app.get(
    '/getApplyStatus',
    {
      config: auth,
      schema: {
        summary: '报考状态与审核记录',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) => ok(await service.status(request.office.id, request.candidate.subjectId, request.query.examId)),
  );
};

export default applicationsRoutes;
