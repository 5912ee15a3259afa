import type { PlatformAuditEntry } from '@zhikaoyun/shared';
import { Table } from 'antd';
import { AuditChainAlert } from '../../../../components/console/AuditChainAlert';
import { pageParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { PLATFORM_AUDIT_PAGE_SIZE, usePlatformAudit, usePlatformAuditChain } from './api';

/** 操作日志: every platform action (sign-ins, offices created, edited, paused, admins created), newest first. */
export default function PlatformAuditPage() {
  const [params, update] = useUrlParams();
  const page = pageParam(params);
  const log = usePlatformAudit(page);
  const chain = usePlatformAuditChain();
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">操作日志</h2>
      </div>
      <AuditChainAlert state={chain.data} />
      <Table<PlatformAuditEntry>
        rowKey="id"
        loading={log.isFetching}
        dataSource={log.data?.list}
        pagination={{
          current: page,
          pageSize: PLATFORM_AUDIT_PAGE_SIZE,
          total: log.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          showSizeChanger: false,
        }}
        columns={[
          { title: '序号', dataIndex: 'seq', width: 80, render: (v: number | null) => v ?? '—' },
          { title: '时间', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
          { title: '操作人', dataIndex: 'operatorName' },
          { title: '操作', dataIndex: 'action' },
          { title: '说明', dataIndex: 'detail' },
          { title: '来源地址', dataIndex: 'ip' },
        ]}
      />
    </div>
  );
}
