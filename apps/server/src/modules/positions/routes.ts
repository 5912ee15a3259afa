import {
  envelopeSchema,
  ErrorCode,
  officeQuerySchema,
  ok,
  positionIdQuerySchema,
  positionListQuerySchema,
  positionPageSchema,
  positionSchema,
} from '@zhikaoyun/shared';
import { AppError } from '../../lib/app-error';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { nowIso } from '../../lib/time';
import { createApplicationsRepository } from '../applications/repository';
import { eligibilityProfile } from '../applications/service';
import { createAccountsRepository } from '../accounts/repository';
import { createPositionsRepository } from './repository';
import { createPositionsService } from './service';

const positionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const positionsRepo = createPositionsRepository(app.db);
  const service = createPositionsService(positionsRepo);
  const accounts = createAccountsRepository(app.db);
  const applications = createApplicationsRepository(app.db);

  app.get(
    '/getPositionList',
    {
      config: { auth: 'optional' },
      schema: {
        summary: '招聘岗位（搜索、筛选、分页；登录时附是否符合报考条件及原因）',
        tags: ['positions'],
        querystring: positionListQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(positionPageSchema) },
      },
    },
    async (request) => {
      const officeId = request.office.id;
      const q = request.query;
      let profile = null;
      if (request.candidate) {
        const candidate = await accounts.findById(officeId, request.candidate.subjectId);
        const application = await applications.findByCandidate(officeId, q.examId, request.candidate.subjectId);
        if (candidate) profile = eligibilityProfile(candidate, application?.form ?? '{}');
      }
      return ok(await service.page(officeId, q.examId, q, profile, nowIso().slice(0, 10)));
    },
  );

  app.get(
    '/getPositionDetail',
    {
      config: { auth: 'optional' },
      schema: {
        summary: '岗位详情（登录时附是否符合报考条件）',
        tags: ['positions'],
        querystring: positionIdQuerySchema.extend(officeQuerySchema.shape),
        response: { 200: envelopeSchema(positionSchema) },
      },
    },
    async (request) => {
      const officeId = request.office.id;
      const found = await positionsRepo.find(officeId, request.query.id);
      if (!found) throw new AppError(ErrorCode.NotFound, '该岗位不存在');
      let profile = null;
      if (request.candidate) {
        const candidate = await accounts.findById(officeId, request.candidate.subjectId);
        const application = await applications.findByCandidate(officeId, found.exam_id, request.candidate.subjectId);
        if (candidate) profile = eligibilityProfile(candidate, application?.form ?? '{}');
      }
      return ok(await service.detail(officeId, request.query.id, profile, nowIso().slice(0, 10)));
    },
  );
};

export default positionsRoutes;
