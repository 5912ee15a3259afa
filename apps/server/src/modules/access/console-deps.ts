import type { FastifyContextConfig } from 'fastify';
import type { Db } from '../../db/database';
import type { AuditService } from '../platform/audit/service';

/** What every console write needs: the database, the audit log, and the public cache to refresh. */
export interface ConsoleDeps {
  db: Db;
  audit: AuditService;
  /** Called after each committed change, so the candidate site shows it on its next read. */
  changed: (officeId: number) => Promise<void>;
}

/**
 * A console route's config: a staff session. Which roles may call it is the route's row of
 * CONSOLE_PERMISSIONS (packages/shared/src/access/permissions.ts), read by plugins/auth.
 */
export const STAFF_ROUTE: FastifyContextConfig = { auth: 'staff' };
