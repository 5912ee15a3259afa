import {
  applicationSchema,
  applyStatusSchema,
  envelopeSchema,
  examIdBodySchema,
  examIdQuerySchema,
  lastProfileSchema,
  myApplicationSchema,
  officeQuerySchema,
  ok,
  saveApplicationSchema,
  submitApplicationSchema,
} from '@zhikaoyun/shared';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The candidate's own application: draft, submit, withdraw and status. */
const applicationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.applications;
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
        summary: '提交报名（重复提交不产生第二条记录；version：考生核对过的报考信息版本）',
        tags,
        querystring: officeQuerySchema,
        body: submitApplicationSchema,
        response: { 200: envelopeSchema(applyStatusSchema) },
      },
    },
    async (request) =>
      ok(
        await service.submit(request.office.id, request.candidate.subjectId, request.body.examId, {
          version: request.body.version,
          timeZone: request.office.timeZone,
        }),
      ),
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
  app.get(
    '/getMyApplications',
    {
      config: auth,
      schema: {
        summary: '我的报名：本人在各考试的报名、状态与下一步',
        tags,
        querystring: officeQuerySchema,
        response: { 200: envelopeSchema(z.array(myApplicationSchema)) },
      },
    },
    async (request) => ok(await service.mine(request.office.id, request.candidate.subjectId)),
  );
  app.get(
    '/getLastApplicationProfile',
    {
      config: auth,
      schema: {
        summary: '本人最近一次其他考试报名中的学历、工作与联系方式（新报名从此开始）',
        tags,
        querystring: examIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(lastProfileSchema) },
      },
    },
    async (request) => ok(await service.lastProfile(request.office.id, request.candidate.subjectId, request.query.examId)),
  );
};

export default applicationsRoutes;
