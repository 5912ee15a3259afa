import type { IncomingMessage } from 'node:http';
import { DEFAULT_TIME_ZONE, ERROR_TEXT, ErrorCode, officeQuerySchema, officeSettingsSchema, officeSuspendedText } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { parseJsonColumn } from '../lib/json';

const officeRequestSchema = officeSettingsSchema.pick({ timeZone: true, staffTotpRequired: true });

export interface Office {
  id: number;
  code: string;
  name: string;
  /** The office's wall clock (IANA name), for its days, windows and deadlines. */
  timeZone: string;
  /** Every staff member must enroll a second factor before using the console (its setting). */
  staffTotpRequired: boolean;
}

/** An office as a request resolves it: paused offices too, so that pages can say so with its name. */
export interface ResolvedOffice {
  office: Office;
  /** Paused by the platform (office.disabled = 1): its API refuses, its pages show 暂停服务. */
  disabled: boolean;
}

/** The office selectors a request may carry (the spec's query parameters), as sent. */
export interface OfficeSelector {
  officeId?: unknown;
  officeCode?: unknown;
}

export interface Offices {
  /**
   * The office a request is for, from its host and its selectors (see the rules below); throws
   * the unknown-office error (HTTP 404) when there is none. Paused offices are answered too.
   */
  resolve(request: FastifyRequest, selector: OfficeSelector): Promise<ResolvedOffice>;
  /**
   * What decides a request's office besides its URL, read from the raw request for the answers
   * made before routing (the public and personal caches key their URLs on it): the host as the
   * request is believed to carry it. Null when that depends on the connection (X-Forwarded-Host
   * sent while only some proxy addresses are trusted): such a request is not answered early.
   */
  hostKey(req: IncomingMessage): string | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    offices: Offices;
  }
  interface FastifyRequest {
    /** The office the request names; set on every /api route that is not marked `tenant: false`. */
    office: Office;
  }
  interface FastifyContextConfig {
    /** false: the route belongs to no office (health, docs, providers' notifies). */
    tenant?: boolean;
  }
}

/** Offices change almost never (code, name, hosts, paused); a lookup per request was a query per request. */
const OFFICE_TTL_MS = 5_000;
/** Bounded memory whatever selectors and hosts strangers send. */
const MAX_REMEMBERED = 1_000;

/** A Host value as office_host keeps it: lower case, without port or a trailing dot. */
export function hostName(host: string): string {
  const lower = host.trim().toLowerCase();
  const name = lower.startsWith('[') ? lower.slice(0, lower.indexOf(']') + 1) : (lower.split(':')[0] ?? '');
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

const unknownOffice = () => new AppError(ErrorCode.UnknownOffice, ERROR_TEXT[ErrorCode.UnknownOffice], 404);

/** The refusal of every call of a paused office (its staff's sign-in included). */
export const officeSuspended = (office: Office) => new AppError(ErrorCode.OfficeSuspended, officeSuspendedText(office.name), 503);

/**
 * Resolves the office of a request, in one place for the API and the pages (decision 028):
 * - a host bound to an office (office_host) is that office, whatever else the request says: a
 *   selector naming another office there is an unknown office, never a way into that other one;
 * - on a host bound to no office, `officeId`/`officeCode` name the office (the spec's client adds
 *   both), and without them it is the deployment's default office (`DEFAULT_OFFICE_CODE`, `demo`;
 *   empty: none, so an unbound host answers 404);
 * - a name that matches no office is a clear error (HTTP 404), never a silent fallback: the
 *   candidate would otherwise register with the wrong office.
 * The host is Fastify's `request.host`: X-Forwarded-Host only from a proxy TRUST_PROXY trusts.
 * A remembered answer lives at most OFFICE_TTL_MS, and ends at once when the office's data version
 * moves (`publicCache.invalidate`, which whoever pauses, resumes or rebinds an office calls).
 */
export default fp(
  async (app: FastifyInstance, opts: { defaultOfficeCode: string; trustProxy: boolean | string[] }) => {
    app.decorateRequest('office', null as unknown as Office);
    const offices = app.services.repos.system;
    const known = new Map<string, { found: ResolvedOffice | null; until: number; tag: string | null }>();

    /** The office's data version now (null: not to be trusted, e.g. Redis away). */
    async function versionOf(officeId: number): Promise<string | null> {
      return app.publicCache.freshTag(officeId) ?? (await app.publicCache.version(officeId));
    }

    async function resolve(request: FastifyRequest, selector: OfficeSelector): Promise<ResolvedOffice> {
      const host = hostName(request.host ?? '');
      const part = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
      const key = `${host}|${part(selector.officeId)}|${part(selector.officeCode)}`;
      const now = Date.now();
      const hit = known.get(key);
      if (hit && hit.until > now) {
        if (!hit.found) throw unknownOffice();
        if (hit.tag !== null && (await versionOf(hit.found.office.id)) === hit.tag) return hit.found;
      }
      const found = await lookup(host, selector);
      const tag = found ? await versionOf(found.office.id) : null;
      if (known.size >= MAX_REMEMBERED) known.clear();
      // An unknown office is remembered only briefly: it may be created from the platform console.
      known.set(key, { found, until: now + (found ? OFFICE_TTL_MS : 1_000), tag });
      if (!found) throw unknownOffice();
      return found;
    }

    async function lookup(host: string, raw: OfficeSelector): Promise<ResolvedOffice | null> {
      const parsed = officeQuerySchema.safeParse({ officeId: raw.officeId, officeCode: raw.officeCode });
      if (!parsed.success) return null;
      const selector = parsed.data;
      const bound = host === '' ? undefined : await offices.findByHost(host);
      let row = bound;
      if (bound) {
        if (selector.officeId !== undefined && selector.officeId !== bound.id) return null;
        if (selector.officeCode && selector.officeCode !== bound.code) return null;
      } else {
        row = await offices.findBySelector(selector, opts.defaultOfficeCode);
      }
      if (!row) return null;
      const settings = parseJsonColumn(officeRequestSchema, row.settings, { timeZone: DEFAULT_TIME_ZONE, staffTotpRequired: false });
      const office = {
        id: row.id,
        code: row.code,
        name: row.name,
        timeZone: settings.timeZone,
        staffTotpRequired: settings.staffTotpRequired,
      };
      return { office, disabled: row.disabled === 1 };
    }

    // Which host Fastify believes (see its request.host): X-Forwarded-Host only from a trusted proxy.
    const trust = opts.trustProxy;
    function hostKey(req: IncomingMessage): string | null {
      const raw = req.rawHeaders;
      // As Node reads them: the first Host counts, repeated X-Forwarded-Host values are joined.
      let host: string | undefined;
      let forwarded: string | undefined;
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i] as string;
        const value = raw[i + 1] ?? '';
        if (name.length === 4 && name.toLowerCase() === 'host') host ??= value;
        else if (name.length === 16 && name.toLowerCase() === 'x-forwarded-host')
          forwarded = forwarded === undefined ? value : `${forwarded}, ${value}`;
      }
      if (forwarded === undefined || trust === false) return host ?? '';
      if (trust === true) return forwarded.split(',').pop()?.trim() ?? '';
      return null;
    }

    app.decorate('offices', { resolve, hostKey });

    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.config.tenant === false) return;
      if (!request.routeOptions.url?.startsWith('/api/')) return;
      const { office, disabled } = await resolve(request, request.query ?? {});
      if (disabled) throw officeSuspended(office);
      request.office = office;
    });
  },
  { name: 'tenancy', dependencies: ['services'] },
);
