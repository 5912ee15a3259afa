import {
  envelopeSchema,
  checkEligibility,
  type EligibilityProfile,
  officeQuerySchema,
  ok,
  type Position,
  positionIdQuerySchema,
  positionListQuerySchema,
  positionPageSchema,
  positionSchema,
} from '@zhikaoyun/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { nowIso } from '../../lib/time';
import { cacheKey, LIVE_TTL_MS } from '../../plugins/public-cache';
import { createApplicationsRepository } from '../applications/repository';
import { eligibilityProfile } from '../applications/service';
import { createAccountsRepository } from '../accounts/repository';
import { createPositionsRepository } from './repository';
import { createPositionsService } from './service';

/**
 * Positions are public: anonymous callers get the office's shared cached answer (applicant counts
 * at most LIVE_TTL_MS old). A logged-in candidate's answer adds `eligible` and its reasons to that
 * same cached base; being personal, it is never stored by a browser or proxy (no-store).
 */
const positionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = createPositionsService(createPositionsRepository(app.db));
  const accounts = createAccountsRepository(app.db);
  const applications = createApplicationsRepository(app.db);
  const live = { ttlMs: LIVE_TTL_MS };

  async function profileOf(officeId: number, candidateId: number, examId: number): Promise<EligibilityProfile | null> {
    const candidate = await accounts.findById(officeId, candidateId);
    if (!candidate) return null;
    const application = await applications.findByCandidate(officeId, examId, candidateId);
    return eligibilityProfile(candidate, application?.form ?? '{}');
  }
  const withEligibility = (p: Position, profile: EligibilityProfile, today: string) => ({
    ...p,
    ...checkEligibility(p.requirements, profile, today),
  });

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
    async (request, reply) => {
      const officeId = request.office.id;
      const q = request.query;
      const key = cacheKey('getPositionList', q);
      const build = () => service.page(officeId, q.examId, q, null, nowIso().slice(0, 10));
      if (!request.candidate) {
        reply.header('vary', 'authorization, token');
        return app.publicCache.serve(request, reply, key, build, live);
      }
      const base = await app.publicCache.data(officeId, key, build, live);
      const profile = await profileOf(officeId, request.candidate.subjectId, q.examId);
      if (!profile) return ok(base);
      const today = nowIso().slice(0, 10);
      return ok({ ...base, list: base.list.map((p) => withEligibility(p, profile, today)) });
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
    async (request, reply) => {
      const officeId = request.office.id;
      const key = cacheKey('getPositionDetail', request.query);
      const build = () => service.detail(officeId, request.query.id, null, nowIso().slice(0, 10));
      if (!request.candidate) {
        reply.header('vary', 'authorization, token');
        return app.publicCache.serve(request, reply, key, build, live);
      }
      const base = await app.publicCache.data(officeId, key, build, live);
      const profile = await profileOf(officeId, request.candidate.subjectId, base.examId);
      return ok(profile ? withEligibility(base, profile, nowIso().slice(0, 10)) : base);
    },
  );
};

export default positionsRoutes;
