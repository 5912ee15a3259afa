import { DEFAULT_TIME_ZONE, ErrorCode, officeQuerySchema, officeSettingsSchema } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { parseJsonColumn } from '../lib/json';

const officeTimeZoneSchema = officeSettingsSchema.pick({ timeZone: true });

export interface Office {
  id: number;
  code: string;
  name: string;
  /** The office's wall clock (IANA name), for its days, windows and deadlines. */
  timeZone: string;
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
/** Offices change almost never (code and name); a lookup per request was a query per request. */
const OFFICE_TTL_MS = 5_000;
/** Bounded memory whatever selectors strangers send. */
const MAX_REMEMBERED = 1_000;

export default fp(
  async (app: FastifyInstance, opts: { defaultOfficeCode: string }) => {
    app.decorateRequest('office', null as unknown as Office);
    const offices = app.services.repos.system;
    const known = new Map<string, { office: Office | null; until: number }>();

    async function resolve(request: FastifyRequest): Promise<Office> {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const part = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
      const key = `${part(query.officeId)}|${part(query.officeCode)}`;
      const now = Date.now();
      const hit = known.get(key);
      if (hit && hit.until > now) {
        if (!hit.office) throw new AppError(ErrorCode.UnknownOffice);
        return hit.office;
      }
      const office = await lookup(query).catch((err: unknown) => {
        if (err instanceof AppError) return null;
        throw err;
      });
      if (known.size >= MAX_REMEMBERED) known.clear();
      // An unknown office is remembered only briefly: it may be created from the console.
      known.set(key, { office, until: now + (office ? OFFICE_TTL_MS : 1_000) });
      if (!office) throw new AppError(ErrorCode.UnknownOffice);
      return office;
    }

    async function lookup(raw: Record<string, unknown>): Promise<Office | null> {
      const parsed = officeQuerySchema.safeParse(raw);
      if (!parsed.success) {
        throw new AppError(ErrorCode.UnknownOffice);
      }
      const row = await offices.findBySelector(parsed.data, opts.defaultOfficeCode);
      if (!row) return null;
      const settings = parseJsonColumn(officeTimeZoneSchema, row.settings, { timeZone: DEFAULT_TIME_ZONE });
      return { id: row.id, code: row.code, name: row.name, timeZone: settings.timeZone };
    }

    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.tenant === false) return;
      if (!request.routeOptions.url?.startsWith('/api/')) return;
      request.office = await resolve(request);
    });
  },
  { name: 'tenancy', dependencies: ['services'] },
);
