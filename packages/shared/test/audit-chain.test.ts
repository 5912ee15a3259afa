import { describe, expect, it } from 'vitest';
import { auditChainSummary, type AuditChainState } from '../src/platform/audit-chain';

const base: AuditChainState = {
  status: 'intact',
  headSeq: 120,
  floorSeq: 0,
  verifiedSeq: 120,
  checkedAt: '2026-03-01T02:00:00.000Z',
  fullCheckAt: '2026-03-01T01:00:00.000Z',
  legacySeq: 0,
  sealedAt: null,
  fault: null,
};
const time = (iso: string) => iso.slice(0, 16).replace('T', ' ');

describe('the audit chain in words', () => {
  it('says how far a whole chain was verified, what a purge removed and what was sealed at the upgrade', () => {
    expect(auditChainSummary(base, time)).toEqual({
      tone: 'success',
      title: '审计链完整：已校验至第 120 条',
      lines: ['共 120 条记录，校验于 2026-03-01 02:00；最近一次完整复核始于 2026-03-01 01:00'],
    });
    const purged = auditChainSummary({ ...base, floorSeq: 20, legacySeq: 30, sealedAt: '2026-02-01T00:00:00.000Z' }, time);
    expect(purged.lines).toEqual([
      '共 100 条记录，校验于 2026-03-01 02:00；最近一次完整复核始于 2026-03-01 01:00',
      '第 1–20 条已超过保存期限，经审计的清理移除（链上保留其锚点）',
      '第 1–30 条写于审计链启用之前，于 2026-02-01 00:00 封存',
    ]);
  });

  it('names where a chain breaks and how, in red', () => {
    const at = (kind: NonNullable<AuditChainState['fault']>['kind']) =>
      auditChainSummary({ ...base, status: 'broken', fault: { kind, seq: 57, id: 1234 } }, time);
    expect(at('changed')).toMatchObject({ tone: 'error', title: '审计链在第 57 条处断开：该记录已被修改' });
    expect(at('removed').title).toBe('审计链在第 57 条处断开：该处的记录已被删除');
    expect(at('inserted').title).toBe('审计链在第 57 条处断开：该记录不在链上，是被插入的');
    expect(at('changed').lines).toContain('请立即核查数据库，并在服务器上运行 npm run verify-audit 查看详情');
    expect(auditChainSummary({ ...base, status: 'checking', verifiedSeq: 5000, headSeq: 9000 }, time).title).toBe(
      '审计链校验中：已校验至第 5000 条，共 9000 条',
    );
  });
});
