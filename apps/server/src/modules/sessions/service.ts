import { createHash, randomBytes } from 'node:crypto';
import { clock, isoIn, nowIso } from '../../lib/clock';
import type { SessionKind, SessionsRepository } from './repository';

/** A session ends after this long without use... */
export const IDLE_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** ...and in any case this long after login. */
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not each become a write. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionPrincipal {
  sessionId: number;
  kind: SessionKind;
  subjectId: number;
  officeId: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createSessionsService(repo: SessionsRepository) {
  return {
    /** A fresh random 256-bit token; only its hash is kept. */
    async open(kind: SessionKind, subjectId: number, officeId: number): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = nowIso();
      await repo.insert({
        token_hash: hashToken(token),
        kind,
        subject_id: subjectId,
        office_id: officeId,
        created_at: now,
        last_seen_at: now,
        expires_at: isoIn(ABSOLUTE_TIMEOUT_MS),
      });
      return token;
    },

    /** The live session of a token, or null when it is unknown, revoked, idle too long or expired. */
    async resolve(token: string): Promise<SessionPrincipal | null> {
      if (!token || token.length > 200) return null;
      const row = await repo.findByHash(hashToken(token));
      if (!row || row.revoked_at !== null) return null;
      const now = clock.nowMs();
      if (Date.parse(row.expires_at) <= now) return null;
      const lastSeen = Date.parse(row.last_seen_at);
      if (lastSeen + IDLE_TIMEOUT_MS <= now) return null;
      if (now - lastSeen > TOUCH_EVERY_MS) await repo.touch(row.id, new Date(now).toISOString());
      return { sessionId: row.id, kind: row.kind as SessionKind, subjectId: row.subject_id, officeId: row.office_id };
    },

    revoke(sessionId: number) {
      return repo.revoke(sessionId, nowIso());
    },

    revokeAll(kind: SessionKind, subjectId: number, exceptSessionId?: number) {
      return repo.revokeAllOf(kind, subjectId, nowIso(), exceptSessionId);
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
