import {
  ANNOUNCEMENT_AUDIENCES,
  ANNOUNCEMENT_CONTENT_MAX,
  ANNOUNCEMENT_TITLE_MAX,
  AUDIENCE_LABEL,
  SMS_KIND_LABEL,
  SMS_KINDS,
  SMS_STATUS_LABEL,
  SMS_STATUSES,
  type AnnouncementAudience,
  type OutboxItem,
  type SmsStatus,
} from '@zhikaoyun/shared';
import { App, Button, Form, Input, Select, Switch, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { useExamParam } from '../../../../components/console/console-exams';
import { pageParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDateTime } from '../../../../components/format';
import { useMayCall } from '../../../../lib/staff-session';
import {
  OUTBOX_PAGE_SIZE,
  useAnnouncementPreview,
  useNotificationSettings,
  useOutbox,
  useRetrySms,
  useSaveNotificationSettings,
  useSendAnnouncement,
} from './api';

const STATUS_COLOR: Record<SmsStatus, string> = { pending: 'default', sending: 'processing', sent: 'success', failed: 'error' };

function Announcement() {
  const { modal, message } = App.useApp();
  const { examId, exams, chooseExam } = useExamParam(['tab']);
  const [audience, setAudience] = useState<AnnouncementAudience>('approved');
  const [form] = Form.useForm<{ title: string; content: string; sms: boolean }>();
  const preview = useAnnouncementPreview(examId, audience);
  const send = useSendAnnouncement();
  const allowed = useMayCall('/api/admin/sendAnnouncement');

  function submit(values: { title: string; content: string; sms: boolean }) {
    if (examId === undefined) return;
    const count = preview.data?.recipients ?? 0;
    modal.confirm({
      title: '发送考务通知',
      content: `将向 ${count} 名考生发送站内消息${values.sms ? `，并向其中 ${preview.data?.withMobile ?? 0} 个手机号发送短信` : ''}。发送后不能撤回，确定发送吗？`,
      okText: '发送',
      cancelText: '取消',
      onOk: async () => {
        const r = await send.mutateAsync({ examId, audience, ...values });
        void message.success(`已发送给 ${r.recipients} 名考生${values.sms ? `，短信 ${r.sms} 条已排队` : ''}`);
        form.resetFields();
      },
    });
  }

  return (
    <div className="console-form" style={{ maxWidth: 720 }}>
      <Form layout="vertical" form={form} onFinish={submit} initialValues={{ sms: false }} disabled={!allowed}>
        <Form.Item label="考试">
          <ConsoleExamPicker exams={exams.data} loading={exams.isPending} value={examId} onChange={chooseExam} />
        </Form.Item>
        <Form.Item
          label="通知对象"
          extra={preview.data ? `将收到：${preview.data.recipients} 人（其中有手机号 ${preview.data.withMobile} 人）` : ' '}
        >
          <Select
            aria-label="通知对象"
            value={audience}
            onChange={setAudience}
            options={ANNOUNCEMENT_AUDIENCES.map((a) => ({ value: a, label: AUDIENCE_LABEL[a] }))}
          />
        </Form.Item>
        <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入通知标题' }]}>
          <Input maxLength={ANNOUNCEMENT_TITLE_MAX} showCount />
        </Form.Item>
        <Form.Item name="content" label="内容" rules={[{ required: true, whitespace: true, message: '请输入通知内容' }]}>
          <Input.TextArea rows={5} maxLength={ANNOUNCEMENT_CONTENT_MAX} showCount />
        </Form.Item>
        <Form.Item name="sms" label="同时发送短信" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={send.isPending} disabled={!allowed || examId === undefined}>
          发送
        </Button>
      </Form>
    </div>
  );
}

function Outbox() {
  const [params, update] = useUrlParams();
  const page = pageParam(params);
  const raw = params.get('status');
  const status = SMS_STATUSES.find((s) => s === raw);
  const outbox = useOutbox(status, page);
  const retry = useRetrySms();
  const allowed = useMayCall('/api/admin/retrySms');
  const counts = outbox.data?.counts;
  return (
    <div>
      <div className="console-toolbar">
        <Select
          aria-label="发送状态"
          style={{ width: 200 }}
          value={status ?? 'all'}
          onChange={(v) => update({ status: v === 'all' ? null : v, page: null })}
          options={[
            { value: 'all', label: '全部状态' },
            ...SMS_STATUSES.map((s) => ({ value: s, label: `${SMS_STATUS_LABEL[s]}${counts ? `（${counts[s]}）` : ''}` })),
          ]}
        />
      </div>
      <Table<OutboxItem>
        rowKey="id"
        loading={outbox.isPending}
        dataSource={outbox.data?.list}
        pagination={{
          current: page,
          pageSize: OUTBOX_PAGE_SIZE,
          total: outbox.data?.total ?? 0,
          onChange: (p) => update({ page: p === 1 ? null : p }),
          showSizeChanger: false,
        }}
        columns={[
          { title: '时间', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), width: 170 },
          { title: '类型', dataIndex: 'kind', render: (k: OutboxItem['kind']) => SMS_KIND_LABEL[k], width: 110 },
          { title: '手机号', dataIndex: 'mobile', width: 130 },
          { title: '内容', dataIndex: 'text', ellipsis: true },
          {
            title: '状态',
            dataIndex: 'status',
            width: 110,
            render: (s: SmsStatus) => <Tag color={STATUS_COLOR[s]}>{SMS_STATUS_LABEL[s]}</Tag>,
          },
          { title: '尝试', dataIndex: 'attempts', width: 70 },
          {
            title: '说明',
            key: 'detail',
            render: (_, r) =>
              r.status === 'sent'
                ? r.sentAt
                  ? `${formatDateTime(r.sentAt)} 发出`
                  : ''
                : r.lastError
                  ? `服务商答复：${r.lastError}`
                  : r.status === 'pending'
                    ? `预计 ${formatDateTime(r.nextAttemptAt)} 发送`
                    : '',
          },
          {
            title: '操作',
            key: 'op',
            width: 100,
            render: (_, r) =>
              r.status === 'failed' && allowed && r.kind !== 'verification_code' ? (
                <Button size="small" loading={retry.isPending && retry.variables === r.id} onClick={() => retry.mutate(r.id)}>
                  重新发送
                </Button>
              ) : null,
          },
        ]}
      />
    </div>
  );
}

function Settings() {
  const { message } = App.useApp();
  const settings = useNotificationSettings();
  const save = useSaveNotificationSettings();
  const allowed = useMayCall('/api/admin/saveNotificationSettings');
  if (!settings.data) return null;
  const current = settings.data;
  const change = (next: typeof current) => save.mutate(next, { onSuccess: () => void message.success('已保存') });
  return (
    <div style={{ maxWidth: 560 }}>
      <h3>以短信同时发送的消息</h3>
      {SMS_KINDS.map((k) => (
        <div key={k} className="console-switch-row" style={{ display: 'flex', justifyContent: 'space-between', padding: '8px 0' }}>
          <span>{SMS_KIND_LABEL[k]}</span>
          <Switch
            aria-label={`${SMS_KIND_LABEL[k]}短信`}
            checked={current.sms[k]}
            disabled={!allowed}
            loading={save.isPending}
            onChange={(on) => change({ ...current, sms: { ...current.sms, [k]: on } })}
          />
        </div>
      ))}
      <h3 style={{ marginTop: 24 }}>手机验证</h3>
      <div style={{ display: 'flex', justifyContent: 'space-between', padding: '8px 0' }}>
        <span>注册和找回密码时需要短信验证码</span>
        <Switch
          aria-label="手机验证"
          checked={current.phoneVerification}
          disabled={!allowed}
          loading={save.isPending}
          onChange={(on) => change({ ...current, phoneVerification: on })}
        />
      </div>
    </div>
  );
}

/** 消息通知: announcements to an exam's candidates, the SMS outbox, what goes out by SMS. */
export default function MessagesAdminPage() {
  const [params, update] = useUrlParams();
  // The SMS outbox holds every candidate's messages of the office: admins only, like its call.
  const allowed = useMayCall('/api/admin/getSmsOutbox');
  const asked = params.get('tab') ?? 'announce';
  const tab = asked === 'outbox' && !allowed ? 'announce' : asked;
  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">消息通知</h2>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => update({ tab: key === 'announce' ? null : key }, { only: true })}
        items={[
          { key: 'announce', label: '考务通知', children: <Announcement /> },
          ...(allowed ? [{ key: 'outbox', label: '短信记录', children: <Outbox /> }] : []),
          { key: 'settings', label: '消息设置', children: <Settings /> },
        ]}
      />
    </div>
  );
}
