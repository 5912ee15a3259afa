import { APPEAL_STATUS_LABEL, APPEAL_STATUSES, DIALOG_WIDTH, type AppealItem, type AppealStatus } from '@zhikaoyun/shared';
import { Alert, App, Button, Descriptions, Form, Input, Modal, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useLocation, useMatch } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { ConsoleNotFound } from '../../../../components/console/ConsoleResult';
import {
  enumParam,
  OPENED_FROM_LIST,
  pageParam,
  useCloseDrawer,
  useLastDefined,
  useUrlParams,
} from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { useAppeals, useResolveAppeal } from './api';

const LIST = '/admin/appeals';
const PAGE_SIZE = 20;
const STATUS_FILTERS = [...APPEAL_STATUSES, 'all'] as const;
const STATUS_COLOR: Record<AppealStatus, string> = { pending: 'processing', reset: 'success', rejected: 'default' };

/**
 * 冒用申诉 (admins): candidates whose ID number someone else registered. Call the appellant on
 * the given mobile, compare the ID card, then reset the account (a one-time password to read out
 * on the phone) or reject with a reason. Every decision lands in the audit log. The status filter
 * and page are `?status=&page=`; rejecting one is `/admin/appeals/:appealId/reject` over the same
 * list (the appeal is found in the page the address names).
 */
export default function AppealsPage() {
  const { modal } = App.useApp();
  const location = useLocation();
  const [params, update] = useUrlParams();
  const status = enumParam<AppealStatus | 'all'>(params, 'status', STATUS_FILTERS, 'pending');
  const page = pageParam(params);
  const list = useAppeals(status === 'all' ? undefined : status, page, PAGE_SIZE);
  const resolve = useResolveAppeal();
  const rejectId = useMatch(`${LIST}/:appealId/reject`)?.params.appealId;
  const found = rejectId === undefined ? undefined : list.data?.list.find((a) => a.id === Number(rejectId));
  // The last appeal the dialog showed: once rejected it leaves the list of pending ones while
  // the dialog closes, and it should still show what it showed.
  const shown = useLastDefined(found);
  const rejecting = rejectId === undefined ? undefined : (found ?? (shown?.id === Number(rejectId) ? shown : undefined));
  const close = useCloseDrawer({ pathname: LIST, search: location.search });

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

  // A link to an appeal that is not in the list it names (another office's, or a made-up id).
  if (rejectId !== undefined && list.data && !list.isPlaceholderData && !rejecting) return <ConsoleNotFound />;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Segmented<AppealStatus | 'all'>
        aria-label="申诉状态"
        value={status}
        onChange={(v) => update({ status: v === 'pending' ? null : v, page: null })}
        options={[...APPEAL_STATUSES.map((s) => ({ value: s, label: APPEAL_STATUS_LABEL[s] })), { value: 'all' as const, label: '全部' }]}
      />
      <Table<AppealItem>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        scroll={{ x: 960 }}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          showSizeChanger: false,
        }}
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
                  <ButtonLink size="small" to={`${LIST}/${r.id}/reject${location.search}`} state={OPENED_FROM_LIST}>
                    驳回
                  </ButtonLink>
                </Space>
              ) : (
                r.handledAt && formatDateTime(r.handledAt)
              ),
          },
        ]}
      />
      <Modal open={rejecting !== undefined} title="驳回申诉" width={DIALOG_WIDTH} footer={null} destroyOnHidden onCancel={close}>
        {shown && <RejectForm appeal={shown} onDone={close} />}
      </Modal>
    </Space>
  );
}

/** Who is being turned down, and why: the reason is required and goes to the audit log. */
function RejectForm({ appeal, onDone }: { appeal: AppealItem; onDone: () => void }) {
  const resolve = useResolveAppeal();
  return (
    <>
      <Descriptions column={1} size="small" className="appeal-reject__who">
        <Descriptions.Item label="申诉人">{appeal.name}</Descriptions.Item>
        <Descriptions.Item label="身份证号">{appeal.idnoMasked}</Descriptions.Item>
        <Descriptions.Item label="联系手机">{appeal.mobile}</Descriptions.Item>
      </Descriptions>
      {appeal.status !== 'pending' ? (
        // A colleague decided it meanwhile, or the link is old.
        <Alert type="info" showIcon title={`该申诉${APPEAL_STATUS_LABEL[appeal.status]}，无需再处理。`} />
      ) : (
        <Form<{ reason: string }>
          name="reject-appeal"
          layout="vertical"
          onFinish={async ({ reason }) => {
            try {
              await resolve.mutateAsync({ id: appeal.id, decision: 'reject', reason });
              onDone();
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
      )}
    </>
  );
}
