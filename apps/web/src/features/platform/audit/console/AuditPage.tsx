import type { AuditEntry } from '@zhikaoyun/shared';
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Table } from 'antd';
import { useState } from 'react';
import { AuditChainAlert } from '../../../../components/console/AuditChainAlert';
import { pageParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { AUDIT_PAGE_SIZE, exportAuditLog, useAuditChainState, useAuditLog } from './api';

/**
 * 审计日志 (the auditor, decision 031): who did what, when, from where, and whether the chain of
 * records is whole (decision 032); the page is `?page=`. 导出 downloads the whole log as .xlsx.
 * Nobody changes or deletes an entry.
 */
export default function AuditPage() {
  const [params, update] = useUrlParams();
  const page = pageParam(params);
  const log = useAuditLog(page);
  const [exporting, setExporting] = useState(false);
  const download = () => {
    setExporting(true);
    exportAuditLog()
      .catch(() => undefined)
      .finally(() => setExporting(false));
  };
  const chain = useAuditChainState();
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">审计日志</h2>
        <Button icon={<DownloadOutlined aria-hidden />} loading={exporting} onClick={download}>
          导出 Excel
        </Button>
      </div>
      <AuditChainAlert state={chain.data} />
      <Table<AuditEntry>
        rowKey="id"
        loading={log.isFetching}
        dataSource={log.data?.list}
        pagination={{
          current: page,
          pageSize: AUDIT_PAGE_SIZE,
          total: log.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          showSizeChanger: false,
        }}
        columns={[
          { title: '序号', dataIndex: 'seq', width: 80, render: (v: number | null) => v ?? '—' },
          { title: '时间', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
          { title: '人员', dataIndex: 'staffName' },
          { title: '操作', dataIndex: 'action' },
          { title: '对象', dataIndex: 'targetLabel' },
          { title: '说明', dataIndex: 'detail' },
          { title: '来源地址', dataIndex: 'ip' },
        ]}
      />
    </div>
  );
}
