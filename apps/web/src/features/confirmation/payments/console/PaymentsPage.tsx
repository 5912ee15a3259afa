import {
  formatFen,
  ORDER_STATUS_LABEL,
  ORDER_STATUSES,
  PAYMENT_PROVIDER_LABEL,
  type OrderStatus,
  type PaymentItem,
  type Reconciliation,
} from '@zhikaoyun/shared';
import { App, Button, Card, Input, Space, Statistic, Table, Tag, Upload } from 'antd';
import { useState } from 'react';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { StatusSelect } from '../../../../components/console/StatusSelect';
import { enumParam, pageParam, urlTable, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { useMayCall } from '../../../../lib/staff-session';
import { APPLICANT_COLUMNS } from './columns';
import { exportPayments, useApplyStatementLine, usePaymentEvents, usePaymentList, useReconcile, useRefund } from './api';

const PAGE_SIZE = 20;
const FILTERS = ['all', ...ORDER_STATUSES] as const;
type Filter = (typeof FILTERS)[number];
const STATUS_COLOR: Record<OrderStatus, string> = {
  unpaid: 'default',
  paid: 'green',
  closed: 'default',
  refunding: 'orange',
  refunded: 'purple',
};
const EVENT_LABEL: Record<string, string> = {
  bad_signature: '验签失败',
  unknown_order: '未知订单',
  amount_mismatch: '金额不符',
  duplicate: '重复支付',
  late: '逾期支付',
  refunded: '已退款',
};

function ReconciliationResult({ result }: { result: Reconciliation }) {
  const { message } = App.useApp();
  const apply = useApplyStatementLine();
  return (
    <Card
      title={`对账结果（${PAYMENT_PROVIDER_LABEL[result.provider]}，${result.lines} 笔，相符 ${result.matched} 笔）`}
      className="console-card"
    >
      <Table
        size="small"
        rowKey="date"
        pagination={false}
        dataSource={result.days}
        columns={[
          { title: '日期', dataIndex: 'date' },
          { title: '渠道笔数', dataIndex: 'statementCount' },
          { title: '渠道金额', dataIndex: 'statementSum', render: (v: number) => formatFen(v) },
          { title: '本系统笔数', dataIndex: 'ourCount' },
          { title: '本系统金额', dataIndex: 'ourSum', render: (v: number) => formatFen(v) },
        ]}
      />
      <h4>渠道已收款、本系统未入账（{result.missingHere.length}）</h4>
      <Table
        size="small"
        rowKey="orderNo"
        pagination={false}
        dataSource={result.missingHere}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '渠道交易号', dataIndex: 'tradeNo' },
          { title: '金额', dataIndex: 'amount', render: (v: number) => formatFen(v) },
          { title: '支付时间', dataIndex: 'paidAt', render: (v: string) => formatDateTime(v) },
          {
            title: '操作',
            render: (_: unknown, l: { orderNo: string }) => (
              <Button
                size="small"
                type="link"
                loading={apply.isPending && apply.variables?.orderNo === l.orderNo}
                onClick={() =>
                  apply.mutate(
                    { provider: result.provider, orderNo: l.orderNo },
                    { onSuccess: () => void message.success('已向渠道核实并补记入账') },
                  )
                }
              >
                核实并补记
              </Button>
            ),
          },
        ]}
      />
      <h4>本系统已入账、渠道对账单中没有（{result.missingThere.length}）</h4>
      <Table
        size="small"
        rowKey="orderNo"
        pagination={false}
        dataSource={result.missingThere}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          { title: '金额', dataIndex: 'amount', render: (v: number) => formatFen(v) },
          { title: '支付时间', dataIndex: 'paidAt', render: (v: string | null) => (v ? formatDateTime(v) : '') },
        ]}
      />
      {result.amountMismatch.length > 0 && (
        <p className="console-warning">
          金额不符：
          {result.amountMismatch.map((m) => `${m.orderNo}（本系统 ${formatFen(m.ours)}，渠道 ${formatFen(m.theirs)}）`).join('；')}
        </p>
      )}
    </Card>
  );
}

/** 缴费管理: orders of an exam with totals, refund, export, reconciliation and the events staff should know of. */
export default function PaymentsPage() {
  const { message, modal } = App.useApp();
  const reconciles = useMayCall('/api/admin/reconcileStatement');
  const refunds = useMayCall('/api/admin/refundPayment');
  const { examId, exams, chooseExam } = useExamParam(['status']);
  const [params, update] = useUrlParams();
  const status = enumParam<Filter>(params, 'status', FILTERS, 'all');
  const page = pageParam(params);
  const list = usePaymentList(examId === undefined ? null : { examId, page, pageSize: PAGE_SIZE, ...(status !== 'all' ? { status } : {}) });
  const events = usePaymentEvents(examId);
  const refund = useRefund();
  const reconcile = useReconcile();
  const [result, setResult] = useState<Reconciliation | null>(null);

  const askRefund = (item: PaymentItem) => {
    let reason = '';
    modal.confirm({
      title: `退费 ${formatFen(item.amount)}（${item.name}）`,
      content: <Input.TextArea placeholder="退费原因（必填）" maxLength={200} onChange={(e) => (reason = e.target.value)} />,
      okText: '确认退费',
      cancelText: '取消',
      onOk: () => refund.mutateAsync({ orderNo: item.orderNo, reason }).then(() => void message.success('已提交退费')),
    });
  };

  return (
    <div>
      <div className="console-toolbar">
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
        <StatusSelect
          label="订单状态"
          value={status}
          onChange={(v) => update({ status: v === 'all' ? null : v, page: null })}
          options={FILTERS.map((f) => ({ value: f, label: f === 'all' ? '全部状态' : ORDER_STATUS_LABEL[f] }))}
        />
        <Space>
          <Button
            disabled={examId === undefined}
            onClick={() =>
              examId !== undefined &&
              void exportPayments(
                { examId, examName: exams.data?.find((e) => e.id === examId)?.name ?? String(examId) },
                status === 'all' ? undefined : status,
              )
            }
          >
            导出 Excel
          </Button>
          {reconciles && (
            <Upload
              accept=".csv,.txt"
              showUploadList={false}
              beforeUpload={(file) => {
                reconcile.mutate(file, { onSuccess: setResult });
                return false;
              }}
            >
              <Button loading={reconcile.isPending}>上传对账单</Button>
            </Upload>
          )}
        </Space>
      </div>
      <Space size="large" className="console-card">
        <Statistic title="订单数" value={list.data?.total ?? 0} loading={list.isLoading} />
        <Statistic title="金额合计" value={formatFen(list.data?.sum ?? 0)} loading={list.isLoading} />
      </Space>
      <Table
        rowKey="orderNo"
        {...urlTable(list, page, PAGE_SIZE, update)}
        columns={[
          { title: '订单号', dataIndex: 'orderNo' },
          ...APPLICANT_COLUMNS,
          { title: '渠道', dataIndex: 'provider', render: (p: PaymentItem['provider']) => PAYMENT_PROVIDER_LABEL[p] },
          { title: '金额', dataIndex: 'amount', render: (v: number) => formatFen(v) },
          { title: '状态', dataIndex: 'status', render: (s: OrderStatus) => <Tag color={STATUS_COLOR[s]}>{ORDER_STATUS_LABEL[s]}</Tag> },
          { title: '支付时间', dataIndex: 'paidAt', render: (v: string | null) => (v ? formatDateTime(v) : '') },
          { title: '备注', dataIndex: 'note' },
          {
            title: '操作',
            render: (_: unknown, item: PaymentItem) =>
              refunds && item.status === 'paid' ? (
                <Button type="link" size="small" danger onClick={() => askRefund(item)}>
                  退费
                </Button>
              ) : null,
          },
        ]}
      />
      {result && <ReconciliationResult result={result} />}
      <Card title="异常与自动处理记录" className="console-card">
        <Table
          rowKey="id"
          size="small"
          loading={events.isLoading}
          dataSource={events.data}
          pagination={{ pageSize: 10 }}
          columns={[
            { title: '时间', dataIndex: 'at', render: (v: string) => formatDateTime(v) },
            { title: '类型', dataIndex: 'kind', render: (k: string) => EVENT_LABEL[k] ?? k },
            { title: '订单号', dataIndex: 'orderNo' },
            { title: '说明', dataIndex: 'detail' },
          ]}
        />
      </Card>
    </div>
  );
}
