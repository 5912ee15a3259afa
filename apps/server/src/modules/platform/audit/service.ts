import { auditActionLabel, type AuditChainState, type AuditEntry, type AuditTarget } from '@zhikaoyun/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema';
import { nowIso } from '../../../lib/clock';
import { breathe } from '../../../lib/row-source';
import type { AuditReaderScope } from '../../access/scope';
import type { AuditRepository } from './repository';

export interface AuditActor {
  id: number;
  officeId: number;
  name: string;
}

const NAMED_KINDS = ['exam', 'position', 'notice', 'staff', 'application', 'feeWaiver'] as const;
type NamedKind = (typeof NAMED_KINDS)[number];

/**
 * Every staff action (and a candidate's own account changes): who, what, on what, when and from
 * where. Personal data never goes in: the log keeps the target as `kind:id` (`auditTarget`), and
 * the console is shown what that is now, by name. Actions are labels of shared AUDIT_ACTIONS;
 * rows from before keep an English key or a `kind#id` target, and are shown translated.
 */
export function createAuditService(repo: AuditRepository) {
  async function targetLabels(officeId: number, targets: readonly string[]): Promise<(target: string) => string> {
    const ids = Object.fromEntries(NAMED_KINDS.map((k) => [k, [] as number[]])) as Record<NamedKind, number[]>;
    for (const t of targets) {
      const m = /^([A-Za-z]+):(\d+)$/.exec(t);
      const kind = NAMED_KINDS.find((k) => k === m?.[1]);
      if (kind && m) ids[kind].push(Number(m[2]));
    }
    const n = await repo.targetNames(officeId, ids);
    const names = new Map<string, string>([
      ...n.exams.map((r) => [`exam:${r.id}`, `考试「${r.name}」`] as const),
      ...n.positions.map((r) => [`position:${r.id}`, `岗位 ${r.code} ${r.name}`] as const),
      ...n.notices.map((r) => [`notice:${r.id}`, `公告「${r.title}」`] as const),
      ...n.staff.map((r) => [`staff:${r.id}`, `人员 ${r.username}（${r.name}）`] as const),
      ...n.applications.map((r) => [`application:${r.id}`, `报名：${r.name}`] as const),
      ...n.waivers.map((r) => [`feeWaiver:${r.id}`, `减免申请：${r.name}`] as const),
    ]);
    return (target) => {
      const named = names.get(target);
      if (named) return named;
      const m = /^([A-Za-z]+)[:#](.+)$/.exec(target);
      if (!m) return target;
      const [, kind, rest] = m;
      if (kind === 'payment') return `订单 ${rest}`;
      if (kind === 'applications') return `${rest} 份报名`;
      if (kind === 'office') return '本机构设置';
      if (kind === 'appeal') return `身份申诉 #${rest}`;
      // An account is named by number only: its holder may have deleted it (old rows: `candidate#id`).
      if (kind === 'candidate') return `考生账号 #${rest}`;
      if (kind === 'sms') return `短信 #${rest}`;
      if (kind === 'attachment') return `附件 #${rest}`;
      if (kind === 'auditLog') return `审计记录第 ${rest} 条及之前`;
      // Deleted since: say what it was.
      const was: Partial<Record<string, string>> = {
        exam: '考试',
        position: '岗位',
        notice: '公告',
        staff: '人员',
        application: '报名',
        feeWaiver: '减免申请',
      };
      return was[kind!] ? `${was[kind!]} #${rest}（已删除）` : target;
    };
  }

  type Row = { id: number; seq: number | null; staff_name: string; action: string; target: string; detail: string; ip: string; at: string };
  async function entries(officeId: number, rows: readonly Row[]): Promise<AuditEntry[]> {
    const label = await targetLabels(
      officeId,
      rows.map((r) => r.target),
    );
    return rows.map((r) => ({
      id: r.id,
      seq: r.seq,
      staffName: r.staff_name,
      action: auditActionLabel(r.action),
      target: r.target,
      targetLabel: label(r.target),
      detail: r.detail,
      ip: r.ip,
      at: r.at,
    }));
  }

  return {
    /** `trx`: the transaction of the change being recorded (a change and its record go together). */
    record(actor: AuditActor, action: string, target: AuditTarget, detail: string, ip: string, trx?: Kysely<DB>) {
      return repo.insert(
        {
          office_id: actor.officeId,
          staff_id: actor.id,
          staff_name: actor.name,
          action,
          target,
          detail,
          ip,
          at: nowIso(),
        },
        trx,
      );
    },
    /** Several records of one actor in one statement (a bulk decision), in `trx` with the change. */
    recordMany(
      actor: AuditActor,
      entries: readonly { action: string; target: AuditTarget; detail: string }[],
      ip: string,
      trx?: Kysely<DB>,
    ) {
      const at = nowIso();
      return repo.insertMany(
        entries.map((e) => ({ office_id: actor.officeId, staff_id: actor.id, staff_name: actor.name, ...e, ip, at })),
        trx,
      );
    },
    /** Whether the office's chain is whole, verified incrementally from its checkpoint (chain-check.ts). */
    chainState(scope: AuditReaderScope): Promise<AuditChainState> {
      return repo.chainState(scope.officeId);
    },
    /** The office's log, for its auditors (the scope says whose office and that the caller is one). */
    async page(scope: AuditReaderScope, page: number, pageSize: number): Promise<{ list: AuditEntry[]; total: number }> {
      const { rows, total } = await repo.page(scope.officeId, (page - 1) * pageSize, pageSize);
      return { list: await entries(scope.officeId, rows), total };
    },
    /** The whole log, newest first, as the page shows it, a batch at a time (the export). */
    async *all(scope: AuditReaderScope): AsyncGenerator<AuditEntry[]> {
      for await (const rows of repo.batches(scope.officeId, 1000)) {
        yield await entries(scope.officeId, rows);
        // Other requests are served between two batches of a long log.
        await breathe();
      }
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
