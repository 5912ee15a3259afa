import { useQuery } from '@tanstack/react-query';
import type { AuditEntry, Envelope } from '@zhikaoyun/shared';
import { Table } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { adminHttp } from '../../../lib/staff-session';

const PAGE_SIZE = 30;

/** 审计日志 (admins): who did what, when, from where. */
export default function AuditPage() {
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: ['console', 'audit', page],
    queryFn: async () =>
      (
        await adminHttp.get<Envelope<{ list: AuditEntry[]; total: number }>>('/api/admin/getAuditLog', {
          params: { page, pageSize: PAGE_SIZE },
        })
      ).data.data!,
    placeholderData: (p) => p,
  });
  return (
    <Table<AuditEntry>
      rowKey="id"
      loading={log.isFetching}
      dataSource={log.data?.list}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: log.data?.total ?? 0, onChange: setPage }}
      columns={[
        { title: '时间', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
        { title: '人员', dataIndex: 'staffName' },
        { title: '操作', dataIndex: 'action' },
        { title: '对象', dataIndex: 'target' },
        { title: '说明', dataIndex: 'detail' },
        { title: '来源地址', dataIndex: 'ip' },
      ]}
    />
  );
}
