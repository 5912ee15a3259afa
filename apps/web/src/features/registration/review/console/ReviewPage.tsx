import { ReloadOutlined } from '@ant-design/icons';
import { APPLICATION_STATUS_LABEL, STAFF_VISIBLE_STATUSES, transitionOf, type ApplicationStatus, type ReviewItem } from '@zhikaoyun/shared';
import { App, Button, Input, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { enumParam, intParam, OPENED_FROM_LIST, pageParam, useCloseDrawer, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { STATUS_LOOK } from '../../../../components/status-look';
import { useMayCall, useStaffSession } from '../../../../lib/staff-session';
import { useExamPositions } from '../../../../lib/api/console-exams';
import { useBulkApprove, useExportApplications, useReviewList } from './api';
import { RejectionReasonsModal } from './RejectionReasonsModal';
import { ReviewDrawer } from './ReviewDrawer';
import { IdentityTags } from './IdentityTags';
import { reviewActions } from './review-actions';

const PAGE_SIZE = 20;
const STATUS_FILTERS = ['all', ...STAFF_VISIBLE_STATUSES] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];
/** The queue opens on what awaits a decision: where a submit leads. */
const AWAITING_REVIEW: StatusFilter = transitionOf('submit').to;

/**
 * 报名审核: the queue, filtered; open one to decide, or approve several at once. Exam, unit,
 * position, status and page are in the URL (`?examId=&unit=&positionId=&status=&page=`); the
 * search keyword is not (it is often an ID number), and an open record is `/admin/review/:id`.
 */
export default function ReviewPage() {
  const { message } = App.useApp();
  const role = useStaffSession((s) => s.staff?.role ?? 'reviewer');
  const location = useLocation();
  const { applicationId } = useParams();
  const { examId, exams, chooseExam } = useExamParam(['status']);
  const [params, update] = useUrlParams();
  const status = enumParam<StatusFilter>(params, 'status', STATUS_FILTERS, AWAITING_REVIEW);
  const unit = params.get('unit') ?? undefined;
  const positionId = intParam(params, 'positionId');
  const page = pageParam(params);
  const [keyword, setKeyword] = useState('');
  const positions = useExamPositions(examId);
  const units = [...new Set(positions.data?.map((p) => p.unit))];
  const [selected, setSelected] = useState<number[]>([]);
  const editsReasons = useMayCall('/api/admin/saveRejectionReasons');
  const [editingReasons, setEditingReasons] = useState(false);
  const list = useReviewList(
    examId === undefined
      ? null
      : {
          examId,
          page,
          pageSize: PAGE_SIZE,
          ...(status !== 'all' ? { status } : {}),
          ...(unit ? { unit } : {}),
          ...(positionId ? { positionId } : {}),
          ...(keyword ? { keyword } : {}),
        },
  );
  const bulk = useBulkApprove();
  const exporting = useExportApplications();
  const closeDrawer = useCloseDrawer({ pathname: '/admin/review', search: location.search });

  return (
    <div>
      <Space wrap className="console-toolbar">
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <Select
          aria-label="招聘单位"
          style={{ width: 200 }}
          allowClear
          placeholder="全部单位"
          value={unit}
          onChange={(v?: string) => update({ unit: v, positionId: null, page: null })}
          options={units.map((u) => ({ value: u, label: u }))}
        />
        <Select
          aria-label="岗位"
          style={{ width: 220 }}
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder="全部岗位"
          value={positionId}
          onChange={(v?: number) => update({ positionId: v, page: null })}
          options={positions.data?.filter((p) => !unit || p.unit === unit).map((p) => ({ value: p.id, label: `${p.code} ${p.name}` }))}
        />
        <Select<StatusFilter>
          aria-label="状态"
          style={{ width: 140 }}
          value={status}
          onChange={(v) => update({ status: v === AWAITING_REVIEW ? null : v, page: null })}
          options={STATUS_FILTERS.map((s) => ({ value: s, label: s === 'all' ? '全部状态' : APPLICATION_STATUS_LABEL[s] }))}
        />
        <Input.Search
          aria-label="搜索报名"
          placeholder="姓名、岗位或身份证号"
          // A worded button: antd's icon-only one is read "search" by a screen reader.
          enterButton="搜索"
          allowClear
          onSearch={(v) => {
            setKeyword(v.trim());
            update({ page: null });
          }}
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
        <Button icon={<ReloadOutlined aria-hidden />} onClick={() => void list.refetch()}>
          刷新
        </Button>
        <Button
          disabled={examId === undefined}
          loading={exporting.isPending}
          onClick={() =>
            examId !== undefined && exporting.mutate({ examId, examName: exams.data?.find((e) => e.id === examId)?.name ?? String(examId) })
          }
        >
          {exporting.isPending ? `导出中… 已接收 ${(exporting.bytes / 2 ** 20).toFixed(1)} MB` : '导出 Excel'}
        </Button>
        {editsReasons && <Button onClick={() => setEditingReasons(true)}>常用不通过原因</Button>}
      </Space>
      <Table<ReviewItem>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (r) => ({ disabled: !reviewActions(r.status, role).includes('approve') }),
        }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          showTotal: (t) => `共 ${t} 条`,
          showSizeChanger: false,
        }}
        columns={[
          { title: '姓名', dataIndex: 'name' },
          { title: '身份证号', dataIndex: 'idnoMasked' },
          { title: '身份核验', key: 'identity', render: (_, r) => <IdentityTags identity={r.identity} /> },
          { title: '手机', dataIndex: 'mobileMasked' },
          { title: '岗位', render: (_, r) => `${r.positionCode} ${r.positionName}` },
          { title: '单位', dataIndex: 'unit' },
          {
            title: '状态',
            dataIndex: 'status',
            render: (s: ApplicationStatus) => <Tag color={STATUS_LOOK[s].tag}>{APPLICATION_STATUS_LABEL[s]}</Tag>,
          },
          { title: '提交时间', dataIndex: 'submittedAt', render: (v: string | null) => (v ? formatDateTime(v) : '') },
          {
            title: '操作',
            render: (_, r) => (
              <ButtonLink type="link" to={`/admin/review/${r.id}${location.search}`} state={OPENED_FROM_LIST}>
                {reviewActions(r.status, role).length > 0 ? '审核' : '查看'}
              </ButtonLink>
            ),
          },
        ]}
      />
      <RejectionReasonsModal open={editingReasons} onClose={() => setEditingReasons(false)} />
      <ReviewDrawer
        id={applicationId === undefined ? null : Number(applicationId)}
        onClose={closeDrawer}
        positions={positions.data ?? []}
      />
    </div>
  );
}
