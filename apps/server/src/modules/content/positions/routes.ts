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
import type { z } from 'zod';
import { clock } from '../../../lib/clock';
import { cacheKey } from '../../../plugins/public-cache';
import { eligibilityProfile } from '../../registration/applications/service';

/**
 * Positions are public: anonymous callers get the office's shared cached answer (applicant counts
 * rebuilt when a submit or withdrawal moves them, not on a timer; see `expireLive`). A logged-in
 * candidate's answer adds `eligible` and its reasons to that same cached base; being personal, it
 * is never stored by a browser or proxy (no-store).
 */
const positionsRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.positions;
  const { accounts, applications } = app.services.repos;
  // Applicant counts move with submits and withdrawals: stale when they move (expireLive), served
  // from the last build while the next one runs.
  const live = { revalidate: true };

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
      const key = positionListKey(q);
      // Each page is cut from the exam's whole list (built once per office and exam, refreshed by
      // staff writes) and its applicant counts (kept as data, refreshed when they move), so a
      // thousand distinct pages and searches cost one build of each.
      const build = async (eligibleOnly?: { profile: EligibilityProfile; today: string }) => {
        const examKey = { examId: q.examId };
        const all = await app.publicCache.data(officeId, cacheKey('positionsOfExam', examKey), () => service.exam(officeId, q.examId));
        const applicants = await app.publicCache.data(
          officeId,
          cacheKey('applicantsOfExam', examKey),
          () => service.applicants(officeId, q.examId),
          live,
        );
        return service.page(all, applicants, q, eligibleOnly);
      };
      if (!request.candidate) {
        reply.header('vary', 'authorization, token');
        return app.publicCache.serve(request, reply, key, () => build(), live);
      }
      const profile = await profileOf(officeId, request.candidate.subjectId, q.examId);
      const today = clock.today(request.office.timeZone);
      // Only the positions this candidate qualifies for: their own list, judged before paging.
      if (profile && q.eligibleOnly === 'true') {
        const own = await build({ profile, today });
        return ok({ ...own, list: own.list.map((p) => withEligibility(p, profile, today)) });
      }
      const base = await app.publicCache.data(officeId, key, () => build(), live);
      if (!profile) return ok(base);
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
      const build = () => service.detail(officeId, request.query.id);
      if (!request.candidate) {
        reply.header('vary', 'authorization, token');
        return app.publicCache.serve(request, reply, key, build, live);
      }
      const base = await app.publicCache.data(officeId, key, build, live);
      const profile = await profileOf(officeId, request.candidate.subjectId, base.examId);
      return ok(profile ? withEligibility(base, profile, clock.today(request.office.timeZone)) : base);
    },
  );
};

/**
 * One key for every way of asking for the same shared page: an empty keyword or unit filters
 * nothing, and eligibleOnly is personal (its lists are never shared).
 */
export function positionListKey(q: z.infer<typeof positionListQuerySchema>): string {
  const { keyword, unit, eligibleOnly: _personal, ...rest } = q;
  return cacheKey('getPositionList', { ...rest, keyword: keyword || undefined, unit: unit || undefined });
}

export default positionsRoutes;
