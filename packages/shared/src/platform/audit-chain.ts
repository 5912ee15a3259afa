import { z } from 'zod';

/**
 * The state of an audit chain as the console shows it (审计日志 above the table): whether every
 * record still follows the one before it under its MAC, up to which record that was checked, and
 * where the chain breaks when it does. Written by the server (modules/platform/audit/chain-check.ts),
 * worded here for both consoles.
 */
export const AUDIT_CHAIN_FAULTS = ['changed', 'removed', 'inserted', 'unverifiable', 'head'] as const;
export type AuditChainFault = (typeof AUDIT_CHAIN_FAULTS)[number];

export const auditChainStateSchema = z.object({
  /** `pending`: records from before the chain wait to be sealed; `checking`: verified part of the way so far. */
  status: z.enum(['empty', 'pending', 'intact', 'checking', 'broken']),
  /** The last record's place (records are numbered from 1 in each chain). */
  headSeq: z.number().int(),
  /** Records up to here were removed by an audited purge after their retention. */
  floorSeq: z.number().int(),
  /** Records up to here follow the chain (verified at `checkedAt`). */
  verifiedSeq: z.number().int(),
  checkedAt: z.string().nullable(),
  /** When the last complete re-check of every record began (the console re-checks a slice per view; npm run verify-audit all of it). */
  fullCheckAt: z.string().nullable(),
  /** Records written before the chain existed, sealed at the first start after the upgrade. */
  legacySeq: z.number().int(),
  sealedAt: z.string().nullable(),
  fault: z.object({ kind: z.enum(AUDIT_CHAIN_FAULTS), seq: z.number().int(), id: z.number().int().nullable() }).nullable(),
});
export type AuditChainState = z.infer<typeof auditChainStateSchema>;

const FAULT_TEXT: Record<AuditChainFault, string> = {
  changed: '该记录已被修改',
  removed: '该处的记录已被删除',
  inserted: '该记录不在链上，是被插入的',
  unverifiable: '该记录的密钥未配置（DATA_KEY_PREVIOUS），无法校验',
  head: '链头与最后一条记录不符',
};

/** The chain's state in words: a headline, its tone, and the facts below it (times through `time`). */
export function auditChainSummary(
  s: AuditChainState,
  time: (iso: string) => string,
): { tone: 'success' | 'info' | 'warning' | 'error'; title: string; lines: string[] } {
  const lines: string[] = [];
  if (s.floorSeq > 0) lines.push(`第 1–${s.floorSeq} 条已超过保存期限，经审计的清理移除（链上保留其锚点）`);
  if (s.legacySeq > 0 && s.sealedAt) lines.push(`第 1–${s.legacySeq} 条写于审计链启用之前，于 ${time(s.sealedAt)} 封存`);
  switch (s.status) {
    case 'empty':
      return { tone: 'info', title: '审计链：尚无记录', lines };
    case 'pending':
      return { tone: 'warning', title: `审计链：启用前的 ${s.legacySeq} 条记录等待封存（服务启动时自动完成）`, lines };
    case 'broken': {
      const f = s.fault!;
      return {
        tone: 'error',
        title: `审计链在第 ${f.seq} 条处断开：${FAULT_TEXT[f.kind]}`,
        lines: [...lines, '请立即核查数据库，并在服务器上运行 npm run verify-audit 查看详情'],
      };
    }
    case 'checking':
      return { tone: 'info', title: `审计链校验中：已校验至第 ${s.verifiedSeq} 条，共 ${s.headSeq} 条`, lines };
    case 'intact':
      return {
        tone: 'success',
        title: `审计链完整：已校验至第 ${s.verifiedSeq} 条`,
        lines: [
          `共 ${s.headSeq - s.floorSeq} 条记录，校验于 ${s.checkedAt ? time(s.checkedAt) : '—'}${s.fullCheckAt ? `；最近一次完整复核始于 ${time(s.fullCheckAt)}` : ''}`,
          ...lines,
        ],
      };
  }
}
