import { ErrorCode, officeQuerySchema } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

export interface Office {
  id: number;
  code: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The office the request names; set on every /api route that is not marked `tenant: false`. */
    office: Office;
  }
  interface FastifyContextConfig {
    /** false: the route belongs to no office (health, docs). */
    tenant?: boolean;
  }
}

/**
 * Resolves the office from `officeId` or `officeCode` (the spec's client adds both), falling back
 * to the deployment's default office. A name that matches no office is a clear error, never a
 * silent fallback: the candidate would otherwise register with the wrong office.
 */
export default fp(
  async (app: FastifyInstance, opts: { defaultOfficeCode: string }) => {
    app.decorateRequest('office', null as unknown as Office);

    async function resolve(request: FastifyRequest): Promise<Office> {
      const parsed = officeQuerySchema.safeParse(request.query ?? {});
      if (!parsed.success) {
        throw new AppError(ErrorCode.UnknownOffice);
      }
      const { officeId, officeCode } = parsed.data;
      let query = app.db.kysely.selectFrom('office').select(['id', 'code', 'name']);
      if (officeId !== undefined) query = query.where('id', '=', officeId);
      if (officeCode) query = query.where('code', '=', officeCode);
      if (officeId === undefined && !officeCode) query = query.where('code', '=', opts.defaultOfficeCode);
      const office = await query.executeTakeFirst();
      if (!office) throw new AppError(ErrorCode.UnknownOffice);
      return office;
    }

    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.tenant === false) return;
      if (!request.routeOptions.url?.startsWith('/api/')) return;
      request.office = await resolve(request);
    });
  },
  { name: 'tenancy', dependencies: ['db'] },
);
