import { APPEAL_STATUS_LABEL, APPEAL_STATUSES, DIALOG_WIDTH, type AppealItem, type AppealStatus } from '@zhikaoyun/shared';
import { App, Button, Form, Input, Modal, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { useAppeals, useResolveAppeal } from '../api';

const PAGE_SIZE = 20;
const STATUS_COLOR: Record<AppealStatus, string> = { pending: 'processing', reset: 'success', rejected: 'default' };

/**
 * 冒用申诉 (admins): candidates whose ID number someone else registered. Call the appellant on
 * the given mobile, compare the ID card, then reset the account (a one-time password to read out
 * on the phone) or reject with a reason. Every decision lands in the audit log.
 */
export default function AppealsPage() {
  const { modal } = App.useApp();
  const [status, setStatus] = useState<AppealStatus | 'all'>('pending');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<AppealItem | null>(null);
  const list = useAppeals(status === 'all' ? undefined : status, page, PAGE_SIZE);
  const resolve = useResolveAppeal();

  function confirmReset(item: AppealItem) {
    modal.confirm({
      title: '重置账号',
      width: DIALOG_WIDTH,
      content: `请确认已致电 ${item.mobile} 并核对了申诉人 ${item.name} 的身份证。重置后：该账号的全部登录立即失效，原密码和密保作废，姓名与手机号改为申诉人的，并生成一次性密码。`,
      okText: '重置账号',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          const result = await resolve.mutateAsync({ id: item.id, decision: 'reset', reason: '已电话核实身份' });
          modal.success({
            title: '账号已重置',
            width: DIALOG_WIDTH,
            content: (
              <div>
                <p>请通过电话将一次性密码告知申诉人（本窗口关闭后不再显示）：</p>
                <Typography.Text code copyable className="appeal-temporary-password">
                  {result.temporaryPassword}
                </Typography.Text>
                <p>申诉人登录后应立即修改密码并重新设置密保。</p>
              </div>
            ),
          });
        } catch {
          // shown by the client
        }
      },
    });
  }

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Segmented<AppealStatus | 'all'>
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        options={[...APPEAL_STATUSES.map((s) => ({ value: s, label: APPEAL_STATUS_LABEL[s] })), { value: 'all' as const, label: '全部' }]}
      />
      <Table<AppealItem>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        scroll={{ x: 960 }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: '提交时间', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 150 },
          { title: '申诉人', dataIndex: 'name', width: 90 },
          { title: '身份证号', dataIndex: 'idnoMasked', width: 170 },
          { title: '联系手机', dataIndex: 'mobile', width: 120 },
          { title: '情况说明', dataIndex: 'description' },
          {
            title: '现有账号',
            width: 110,
            render: (_: unknown, r) => (r.accountExists ? `已注册（${r.accountName}）` : '无'),
          },
          {
            title: '状态',
            width: 150,
            render: (_: unknown, r) => (
              <Space orientation="vertical" size={0}>
                <Tag color={STATUS_COLOR[r.status]}>{APPEAL_STATUS_LABEL[r.status]}</Tag>
                {r.reason && <Typography.Text type="secondary">{r.reason}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: '操作',
            width: 170,
            render: (_: unknown, r) =>
              r.status === 'pending' ? (
                <Space>
                  <Button size="small" danger disabled={!r.accountExists} onClick={() => confirmReset(r)}>
                    重置账号
                  </Button>
                  <Button size="small" onClick={() => setRejecting(r)}>
                    驳回
                  </Button>
                </Space>
              ) : (
                r.handledAt && formatDateTime(r.handledAt)
              ),
          },
        ]}
      />
      <Modal
        open={rejecting !== null}
        title="驳回申诉"
        width={DIALOG_WIDTH}
        footer={null}
        destroyOnHidden
        onCancel={() => setRejecting(null)}
      >
        <Form<{ reason: string }>
          name="reject-appeal"
          layout="vertical"
          onFinish={async ({ reason }) => {
            if (!rejecting) return;
            try {
              await resolve.mutateAsync({ id: rejecting.id, decision: 'reject', reason });
              setRejecting(null);
            } catch {
              // shown by the client
            }
          }}
        >
          <Form.Item name="reason" label="驳回原因（记入审计日志）" rules={[{ required: true, message: '驳回须填写原因' }]}>
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={resolve.isPending}>
            驳回
          </Button>
        </Form>
      </Modal>
    </Space>
  );
}
