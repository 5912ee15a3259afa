import { createHash, randomBytes } from 'node:crypto';
import { clock, isoIn, nowIso } from '../../../lib/clock';
import type { SessionKind, SessionsRepository } from './repository';

/** A candidate's session ends after this long without use (staff: STAFF_IDLE_MINUTES, decision 030)... */
export const CANDIDATE_IDLE_TIMEOUT_MS = 2 * 60 * 60 * 1000;
/** ...and any session in any case this long after login. */
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not each become a write. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SessionPrincipal {
  sessionId: number;
  kind: SessionKind;
  subjectId: number;
  officeId: number;
  /** How much longer (ms) the session stays valid, from the moment it was checked (idle or absolute limit). */
  validForMs: number;
}

/** Sessions that have just ended: one, or all of a subject's but one. */
export type EndedSessions = { sessionId: number } | { kind: SessionKind; subjectId: number; exceptSessionId?: number | undefined };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function createSessionsService(repo: SessionsRepository, { staffIdleMs }: { staffIdleMs: number }) {
  const idleMs = (kind: SessionKind) => (kind === 'staff' ? staffIdleMs : CANDIDATE_IDLE_TIMEOUT_MS);
  // Told after an ending is committed: caches of what a session may read forget it at once.
  const listeners: ((ended: EndedSessions) => void)[] = [];
  const told = (ended: EndedSessions) => {
    for (const listener of listeners) listener(ended);
  };
  /** A fresh random 256-bit token; only its hash is kept. */
  async function open(kind: SessionKind, subjectId: number, officeId: number): Promise<string> {
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
  }

  return {
    open,

    /**
     * A new session that is the subject's only one: every older one ends (a staff sign-in,
     * decision 030). Answers the token and how many sessions it ended.
     */
    async openAlone(kind: SessionKind, subjectId: number, officeId: number): Promise<{ token: string; ended: number }> {
      const token = await open(kind, subjectId, officeId);
      const ended = await repo.revokeAllBut(kind, subjectId, hashToken(token), nowIso(), isoIn(-idleMs(kind)));
      if (ended > 0) told({ kind, subjectId });
      return { token, ended };
    },

    /** The live session of a token, or null when it is unknown, revoked, idle too long or expired. */
    async resolve(token: string): Promise<SessionPrincipal | null> {
      if (!token || token.length > 200) return null;
      const row = await repo.findByHash(hashToken(token));
      if (!row || row.revoked_at !== null) return null;
      const now = clock.nowMs();
      if (Date.parse(row.expires_at) <= now) return null;
      const kind = row.kind as SessionKind;
      const idle = idleMs(kind);
      const lastSeen = Date.parse(row.last_seen_at);
      if (lastSeen + idle <= now) return null;
      const touched = now - lastSeen > TOUCH_EVERY_MS;
      if (touched) await repo.touch(row.id, new Date(now).toISOString());
      const validUntil = Math.min(Date.parse(row.expires_at), (touched ? now : lastSeen) + idle);
      return {
        sessionId: row.id,
        kind,
        subjectId: row.subject_id,
        officeId: row.office_id,
        validForMs: validUntil - now,
      };
    },

    async revoke(sessionId: number): Promise<void> {
      await repo.revoke(sessionId, nowIso());
      told({ sessionId });
    },

    async revokeAll(kind: SessionKind, subjectId: number, exceptSessionId?: number): Promise<void> {
      await repo.revokeAllOf(kind, subjectId, nowIso(), exceptSessionId);
      told({ kind, subjectId, exceptSessionId });
    },

    /** The subject's sessions were deleted with it (account deletion): tell who keeps answers for them. */
    deleted(kind: SessionKind, subjectId: number): void {
      told({ kind, subjectId });
    },

    /** Calls `listener` after every ending, in this process. */
    onEnded(listener: (ended: EndedSessions) => void): void {
      listeners.push(listener);
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
