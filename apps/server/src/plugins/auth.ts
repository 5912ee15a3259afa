import type { IncomingHttpHeaders } from 'node:http';
import { consolePermission, ErrorCode, STAFF_ROLES, type PasswordChangeDue, type StaffRole } from '@zhikaoyun/shared';
import { z } from 'zod';
import { parseJsonColumn } from '../lib/json';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import type { OperatorPrincipal } from '../modules/platform/offices/service';
import type { SessionPrincipal } from '../modules/access/sessions/service';

export interface StaffPrincipal {
  id: number;
  sessionId: number;
  officeId: number;
  username: string;
  name: string;
  role: StaffRole;
  /** Units a reviewer may see and review; empty: none (see modules/access/scope.ts). */
  units: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The candidate's session, set on routes with `config.auth: 'candidate'` (and on
     * 'optional' ones when a valid candidate token came; null otherwise). */
    candidate: SessionPrincipal;
    /** The staff member, set on routes with `config.auth: 'staff'`. */
    staff: StaffPrincipal;
    /** The platform's operator, set on routes with `config.auth: 'platform'`. */
    operator: OperatorPrincipal;
  }
  interface FastifyContextConfig {
    /** Who may call the route: a candidate's token, a staff token (console), the platform
     * operator's token (its own sessions, never an office's), or anyone, with a candidate's
     * session used when one is given ('optional'). */
    auth?: 'candidate' | 'staff' | 'platform' | 'optional';
    /** A staff or platform route a session with a one-time password may call (changing it, signing out). */
    openBeforePasswordChange?: boolean;
    /** A staff or platform route open to a session whose second factor is due (enrolling it); the
     * routes open before a password change are open before it too. */
    openBeforeTotpEnrollment?: boolean;
  }
}

/** The token the spec's client sends: `Authorization: Bearer …`, or the `token` header. */
export function tokenFromHeaders(headers: IncomingHttpHeaders): string {
  const auth = headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = headers.token;
  return typeof header === 'string' ? header.trim() : '';
}

export const tokenOf = (request: FastifyRequest): string => tokenFromHeaders(request.headers);

/**
 * Sessions for every route that asks for them. A missing, expired or revoked token, a staff
 * token on a candidate's call, or a session of another office all answer errorCode 401; a staff
 * member whose role the route's row of CONSOLE_PERMISSIONS (packages/shared) does not list, 403.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { sessions, repos, platform, passwordPolicy, secondFactor } = app.services;
    app.decorateRequest('candidate', null as unknown as SessionPrincipal);
    app.decorateRequest('staff', null as unknown as StaffPrincipal);
    app.decorateRequest('operator', null as unknown as OperatorPrincipal);
    // A one-time (issue 31) or expired (decision 030) password opens nothing but its own change.
    const passwordChangeFirst = (request: FastifyRequest, due: PasswordChangeDue | null) =>
      passwordPolicy.gate(due, request.routeOptions.config.openBeforePasswordChange === true);
    // Then a second factor that is due (production admins, the operator, or the office's rule): its enrollment.
    const enrollmentFirst = async (request: FastifyRequest, mustEnroll: () => Promise<boolean>) => {
      const { openBeforePasswordChange, openBeforeTotpEnrollment } = request.routeOptions.config;
      if (openBeforePasswordChange !== true && openBeforeTotpEnrollment !== true && (await mustEnroll()))
        throw new AppError(ErrorCode.SecondFactorEnrollmentRequired);
    };
    // The console signs out by itself when its session has ended unused (decision 030).
    const validFor = (reply: FastifyReply, ms: number) => reply.header('x-session-valid-for', String(Math.max(0, Math.floor(ms / 1000))));

    // Before validation: a caller without a session learns nothing about the call's rules.
    app.addHook('preValidation', async (request, reply) => {
      const needed = request.routeOptions.config.auth;
      if (!needed) return;
      if (needed === 'platform') {
        // Platform sessions are in a table of their own: an office's token is no token here.
        const operator = await platform.authenticate(tokenOf(request));
        if (!operator) throw new AppError(ErrorCode.Unauthorized);
        request.operator = operator;
        validFor(reply, operator.validForMs);
        passwordChangeFirst(request, operator.passwordChange);
        await enrollmentFirst(request, () =>
          secondFactor.mustEnroll({ kind: 'operator', id: operator.id, name: operator.name }, undefined, false),
        );
        return;
      }
      const session = await sessions.resolve(tokenOf(request));
      if (needed === 'optional') {
        const ok = session && session.kind === 'candidate' && session.officeId === request.office.id;
        request.candidate = (ok ? session : null) as SessionPrincipal;
        return;
      }
      if (!session || session.kind !== needed || session.officeId !== request.office.id) {
        throw new AppError(ErrorCode.Unauthorized);
      }
      if (needed === 'candidate') request.candidate = session;
      if (needed === 'staff') {
        const row = await repos.staff.findForSession(session.officeId, session.subjectId);
        const role = STAFF_ROLES.find((r) => r === row?.role);
        if (!row || row.disabled || !role) throw new AppError(ErrorCode.Unauthorized);
        request.staff = {
          id: row.id,
          sessionId: session.sessionId,
          officeId: session.officeId,
          username: row.username,
          name: row.name,
          role,
          units: parseJsonColumn(z.array(z.string()), row.units, []),
        };
        validFor(reply, session.validForMs);
        passwordChangeFirst(request, passwordPolicy.changeDue(row));
        const owner = { kind: 'staff', id: row.id, officeId: session.officeId, name: row.name } as const;
        await enrollmentFirst(request, () => secondFactor.mustEnroll(owner, role, request.office.staffTotpRequired));
        // Which roles may: the one permission table. A staff route without a row there opens to nobody.
        const allowed = consolePermission(request.routeOptions.url ?? '');
        if (allowed === undefined || allowed === 'public' || !allowed.includes(role)) throw new AppError(ErrorCode.Forbidden);
      }
    });
  },
  { name: 'auth', dependencies: ['services', 'tenancy'] },
);
