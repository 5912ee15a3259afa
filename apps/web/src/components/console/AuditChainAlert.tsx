import { auditChainSummary, type AuditChainState } from '@zhikaoyun/shared';
import { Alert } from 'antd';
import { formatDateTime } from '../format';

/**
 * Above an audit log (the office's 审计日志, the platform's 操作日志): whether its chain of MACs
 * is whole, up to which record it was verified, or where it breaks (the table's 序号 column
 * finds that record). Nothing while the state loads.
 */
export function AuditChainAlert({ state }: { state: AuditChainState | undefined }) {
  if (!state) return null;
  const { tone, title, lines } = auditChainSummary(state, formatDateTime);
  return (
    <Alert
      data-testid="audit-chain"
      type={tone}
      showIcon
      title={title}
      description={lines.length > 0 ? lines.map((l) => <div key={l}>{l}</div>) : undefined}
      style={{ marginBottom: 16 }}
    />
  );
}
