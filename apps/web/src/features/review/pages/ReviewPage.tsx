import { ReloadOutlined } from '@ant-design/icons';
import { APPLICATION_STATUSES, APPLICATION_STATUS_LABEL, type ApplicationStatus, type ReviewItem } from '@zhikaoyun/shared';
import { App, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { downloadExport, useBulkApprove, useExamPositions, useReviewList } from '../api';
import { ConsoleExamPicker } from '../../../components/console/ConsoleExamPicker';
import { ReviewDrawer } from '../components/ReviewDrawer';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<ApplicationStatus, string> = {
  draft: 'default',
  submitted: 'processing',
  approved: 'success',
  rejected: 'error',
};

/** 报名审核: the queue, filtered; open one to decide, or approve several at once. */
export default function ReviewPage() {
  const { message } = App.useApp();
  const [examId, setExamId] = useState<number>();
  const [status, setStatus] = useState<ApplicationStatus | ''>('submitted');
  const [keyword, setKeyword] = useState('');
  const [unit, setUnit] = useState<string>();
  const [positionId, setPositionId] = useState<number>();
  const positions = useExamPositions(examId);
  const units = [...new Set(positions.data?.map((p) => p.unit))];
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const list = useReviewList(
    examId === undefined
      ? null
      : {
          examId,
          page,
          pageSize: PAGE_SIZE,
          ...(status ? { status } : {}),
          ...(unit ? { unit } : {}),
          ...(positionId ? { positionId } : {}),
          ...(keyword ? { keyword } : {}),
        },
  );
  const bulk = useBulkApprove();

  return (
    <div>
      <Space wrap className="console-toolbar">
        <ConsoleExamPicker value={examId} onChange={(id) => (setExamId(id), setUnit(undefined), setPositionId(undefined), setPage(1))} />
        <Select
          aria-label="招聘单位"
          style={{ width: 200 }}
          allowClear
          placeholder="全部单位"
          value={unit}
          onChange={(v?: string) => (setUnit(v), setPositionId(undefined), setPage(1))}
          options={units.map((u) => ({ value: u, label: u }))}
        />
        <Select
          aria-label="岗位"
          style={{ width: 220 }}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="全部岗位"
          value={positionId}
          onChange={(v?: number) => (setPositionId(v), setPage(1))}
          options={positions.data?.filter((p) => !unit || p.unit === unit).map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))}
        />
        <Select
          aria-label="状态"
          style={{ width: 140 }}
          value={status}
          onChange={(v) => (setStatus(v), setPage(1))}
          options={[
            { value: '', label: '全部状态' },
            ...APPLICATION_STATUSES.filter((s) => s !== 'draft').map((s) => ({ value: s, label: APPLICATION_STATUS_LABEL[s] })),
          ]}
        />
        <Input.Search
          aria-label="搜索报名"
          placeholder="姓名、岗位或身份证号"
          allowClear
          onSearch={(v) => (setKeyword(v.trim()), setPage(1))}
          style={{ width: 260 }}
        />
        <Button
          disabled={selected.length === 0}
          loading={bulk.isPending}
          onClick={() =>
            bulk.mutate(selected, {
              onSuccess: (r) => {
                void message.success(`已通过 ${r.approved} 条${r.skipped ? `，${r.skipped} 条不在待审核状态` : ''}`);
                setSelected([]);
              },
            })
          }
        >
          批量通过（{selected.length}）
        </Button>
        <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()}>
          刷新
        </Button>
        <Button disabled={examId === undefined} onClick={() => examId !== undefined && void downloadExport(examId).catch(() => undefined)}>
          导出 Excel
        </Button>
      </Space>
      <Table<ReviewItem>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (r) => ({ disabled: r.status !== 'submitted' }),
        }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage, showTotal: (t) => `共 ${t} 条` }}
        columns={[
          { title: '姓名', dataIndex: 'name' },
          { title: '身份证号', dataIndex: 'idnoMasked' },
          { title: '手机', dataIndex: 'mobileMasked' },
          { title: '岗位', render: (_, r) => `${r.positionCode} ${r.positionName}` },
          { title: '单位', dataIndex: 'unit' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: ApplicationStatus) => <Tag color={STATUS_COLOR[s]}>{APPLICATION_STATUS_LABEL[s]}</Tag>,
          },
          { title: '提交时间', dataIndex: 'submittedAt', render: (v: string | null) => (v ? formatDateTime(v) : '') },
          {
            title: '操作',
            render: (_, r) => (
              <Button type="link" onClick={() => setOpen(r.id)}>
                {r.status === 'submitted' ? '审核' : '查看'}
              </Button>
            ),
          },
        ]}
      />
      <ReviewDrawer id={open} onClose={() => setOpen(null)} />
    </div>
  );
}
