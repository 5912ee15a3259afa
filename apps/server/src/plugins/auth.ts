import { ErrorCode } from '@zhikaoyun/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { createSessionsRepository } from '../modules/sessions/repository';
import { createSessionsService, type SessionPrincipal, type SessionsService } from '../modules/sessions/service';

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionsService;
  }
  interface FastifyRequest {
    /** The candidate's session, set on routes with `config.auth: 'candidate'` (and on
     * 'optional' ones when a valid candidate token came; null otherwise). */
    candidate: SessionPrincipal;
  }
  interface FastifyContextConfig {
    /** Who may call the route: a candidate's token, a staff token (console), or anyone, with a
     * candidate's session used when one is given ('optional'). */
    auth?: 'candidate' | 'staff' | 'optional';
  }
}

/** The token the spec's client sends: `Authorization: Bearer …`, or the `token` header. */
export function tokenOf(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7).trim();
  const header = request.headers.token;
  return typeof header === 'string' ? header.trim() : '';
}

/**
 * Sessions for every route that asks for them. A missing, expired or revoked token, a staff
 * token on a candidate's call, or a session of another office all answer errorCode 401.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate('sessions', createSessionsService(createSessionsRepository(app.db)));
    app.decorateRequest('candidate', null as unknown as SessionPrincipal);

    // Before validation: a caller without a session learns nothing about the call's rules.
    app.addHook('preValidation', async (request) => {
      const needed = request.routeOptions.config.auth;
      if (!needed) return;
      const session = await app.sessions.resolve(tokenOf(request));
      if (needed === 'optional') {
        const ok = session && session.kind === 'candidate' && session.officeId === request.office.id;
        request.candidate = (ok ? session : null) as SessionPrincipal;
        return;
      }
      if (!session || session.kind !== needed || session.officeId !== request.office.id) {
        throw new AppError(ErrorCode.Unauthorized);
      }
      if (needed === 'candidate') request.candidate = session;
    });
  },
  { name: 'auth', dependencies: ['db', 'tenancy'] },
);
