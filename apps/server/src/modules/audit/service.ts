import type { AuditEntry } from '@zhikaoyun/shared';
import { nowIso } from '../../lib/time';
import type { AuditRepository } from './repository';

export interface AuditActor {
  id: number;
  officeId: number;
  name: string;
}

/** Every staff action: who, what, on what, when and from where. Personal data never goes in. */
export function createAuditService(repo: AuditRepository) {
  return {
    record(actor: AuditActor, action: string, target: string, detail: string, ip: string) {
      return repo.insert({
        office_id: actor.officeId,
        staff_id: actor.id,
        staff_name: actor.name,
        action,
        target,
        detail,
        ip,
        at: nowIso(),
      });
    },
    async page(officeId: number, page: number, pageSize: number): Promise<{ list: AuditEntry[]; total: number }> {
      const { rows, total } = await repo.page(officeId, (page - 1) * pageSize, pageSize);
      return {
        list: rows.map((r) => ({
          id: r.id,
          staffName: r.staff_name,
          action: r.action,
          target: r.target,
          detail: r.detail,
          ip: r.ip,
          at: r.at,
        })),
        total,
      };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
