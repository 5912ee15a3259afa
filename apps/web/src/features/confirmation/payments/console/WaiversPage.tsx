import { WAIVER_CATEGORY_LABEL, WAIVER_STATUS_LABEL, WAIVER_STATUSES, type WaiverItem, type WaiverStatus } from '@zhikaoyun/shared';
import { App, Button, Input, Space, Table, Tag } from 'antd';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { StatusSelect } from '../../../../components/console/StatusSelect';
import { enumParam, pageParam, urlTable, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { APPLICANT_COLUMNS } from './columns';
import { openWaiverProof, useReviewWaiver, useWaiverList } from './api';

const PAGE_SIZE = 20;
const FILTERS = ['all', ...WAIVER_STATUSES] as const;
type Filter = (typeof FILTERS)[number];
const COLOR: Record<WaiverStatus, string> = { pending: 'processing', approved: 'green', rejected: 'red' };

/** 减免审核: the waiver queue; approving confirms the application, rejecting (with a reason) leaves the candidate to pay. */
export default function WaiversPage() {
  const { message, modal } = App.useApp();
  const { examId, exams, chooseExam } = useExamParam(['status']);
  const [params, update] = useUrlParams();
  const status = enumParam<Filter>(params, 'status', FILTERS, 'pending');
  const page = pageParam(params);
  const list = useWaiverList(examId === undefined ? null : { examId, page, pageSize: PAGE_SIZE, ...(status !== 'all' ? { status } : {}) });
  const review = useReviewWaiver();

  // Each decision names the candidate and what follows, and is asked once more: an approval
  // confirms the application at once and cannot be taken back.
  const approve = (w: WaiverItem) => {
    modal.confirm({
      title: `通过 ${w.name} 的报名费减免申请？`,
      content: `减免类别：${WAIVER_CATEGORY_LABEL[w.category]}。通过后免缴报名费，${w.name} 的报名随即确认，不能撤销。`,
      okText: '确认通过',
      cancelText: '返回',
      onOk: () =>
        review.mutateAsync({ waiverId: w.id, decision: 'approve', reason: '' }).then(() => void message.success('已通过，报名已确认')),
    });
  };

  const reject = (w: WaiverItem) => {
    let reason = '';
    modal.confirm({
      title: `${w.name} 的报名费减免申请不通过？`,
      content: (
        <>
          <p>减免类别：{WAIVER_CATEGORY_LABEL[w.category]}。不通过后考生仍可在确认截止前缴费。</p>
          <Input.TextArea
            aria-label="不通过原因"
            placeholder="不通过原因（必填，考生可见）"
            maxLength={200}
            onChange={(e) => (reason = e.target.value)}
          />
        </>
      ),
      okText: '确认不通过',
      cancelText: '返回',
      onOk: () => review.mutateAsync({ waiverId: w.id, decision: 'reject', reason }).then(() => void message.success('已审核')),
    });
  };

  return (
    <div>
      <div className="console-toolbar">
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <StatusSelect
          label="审核状态"
          value={status}
          onChange={(v) => update({ status: v === 'pending' ? null : v, page: null })}
          options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? '全部状态' : WAIVER_STATUS_LABEL[f] }))}
        />
      </div>
      <Table
        rowKey="id"
        {...urlTable(list, page, PAGE_SIZE, update)}
        columns={[
          ...APPLICANT_COLUMNS,
          { title: '单位', dataIndex: 'unit' },
          { title: '减免类别', dataIndex: 'category', render: (c: WaiverItem['category']) => WAIVER_CATEGORY_LABEL[c] },
          { title: '申请时间', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: '状态', dataIndex: 'status', render: (s: WaiverStatus) => <Tag color={COLOR[s]}>{WAIVER_STATUS_LABEL[s]}</Tag> },
          { title: '意见', dataIndex: 'reason' },
          {
            title: '操作',
            render: (_: unknown, w: WaiverItem) => (
              <Space>
                <Button size="small" type="link" onClick={() => void openWaiverProof(w.id)}>
                  证明材料
                </Button>
                {w.status === 'pending' && (
                  <>
                    <Button size="small" type="link" onClick={() => approve(w)}>
                      通过
                    </Button>
                    <Button size="small" type="link" danger onClick={() => reject(w)}>
                      不通过
                    </Button>
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
