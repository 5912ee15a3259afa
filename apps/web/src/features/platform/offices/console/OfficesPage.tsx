import { PlusOutlined } from '@ant-design/icons';
import { officeHostSchema, saveOfficeSchema, type OfficeAdminResult, type PlatformOffice } from '@zhikaoyun/shared';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FormModal } from '../../../../components/console/FormModal';
import { zodMessage, zodRule } from '../../../../lib/form-rules';
import { useCreateOfficeAdmin, useOffices, useSaveOffice } from './api';

interface OfficeValues {
  code: string;
  name: string;
  hosts: string[];
}

/** 新建 / 编辑考试机构: code, name and host names (typed as tags; each one office's alone). */
function OfficeEditor({ office, onClose }: { office: PlatformOffice | 'new'; onClose: () => void }) {
  const [form] = Form.useForm<OfficeValues>();
  const save = useSaveOffice();
  const { message } = App.useApp();
  const editing = office === 'new' ? null : office;
  return (
    <FormModal
      form={form}
      saving={save.isPending}
      open
      title={editing ? `编辑考试机构：${editing.name}` : '新建考试机构'}
      onClose={onClose}
    >
      <Form<OfficeValues>
        form={form}
        name="office"
        layout="vertical"
        requiredMark={false}
        initialValues={editing ? { code: editing.code, name: editing.name, hosts: editing.hosts } : { hosts: [] }}
        onFinish={(values) =>
          save.mutate(
            {
              ...(editing ? { id: editing.id } : {}),
              code: values.code,
              name: values.name,
              hosts: values.hosts.map((h) => h.trim().toLowerCase()),
            },
            {
              onSuccess: () => {
                void message.success(editing ? '已保存' : '考试机构已创建');
                onClose();
              },
            },
          )
        }
      >
        <Form.Item
          name="code"
          label="机构代码"
          rules={[zodRule(saveOfficeSchema.shape.code)]}
          extra="2–32 位小写字母、数字或连字符，如 hz-rsks"
        >
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label="机构名称" rules={[zodRule(saveOfficeSchema.shape.name)]}>
          <Input maxLength={40} />
        </Form.Item>
        <Form.Item
          name="hosts"
          label="绑定域名"
          extra="输入域名后按回车，如 bm.example.cn（不含 http:// 和端口）；一个域名只能属于一个考试机构"
          rules={[
            {
              validator: async (_rule, value: string[] | undefined) => {
                for (const host of value ?? []) {
                  const problem = zodMessage(officeHostSchema, host);
                  if (problem) throw new Error(`${host}：${problem}`);
                }
              },
            },
          ]}
        >
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={[',', ' ', '，']} aria-label="绑定域名" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** 创建管理员: the office's admin, whose one-time password is shown here once, with a copy button. */
function AdminCreator({ office, onClose }: { office: PlatformOffice; onClose: () => void }) {
  const [form] = Form.useForm<{ username: string; name: string }>();
  const create = useCreateOfficeAdmin();
  const [created, setCreated] = useState<OfficeAdminResult | null>(null);
  if (created)
    return (
      <Modal
        open
        title={`${office.name}：管理员已创建`}
        closable={false}
        maskClosable={false}
        keyboard={false}
        footer={
          <Button type="primary" onClick={onClose}>
            我已记下，关闭
          </Button>
        }
      >
        <Alert
          type="warning"
          showIcon
          className="admin-password__notice"
          message="一次性密码仅显示这一次"
          description="关闭后无法再次查看。请通过安全的方式交给该机构的管理员；其首次登录后须修改密码。"
        />
        <p>
          用户名：<Typography.Text strong>{created.username}</Typography.Text>
        </p>
        <p>
          一次性密码：
          <Typography.Text code copyable={{ text: created.initialPassword, tooltips: ['复制', '已复制'] }} data-testid="initial-password">
            {created.initialPassword}
          </Typography.Text>
        </p>
      </Modal>
    );
  return (
    <FormModal form={form} saving={create.isPending} open title={`创建管理员：${office.name}`} onClose={onClose}>
      <Form
        form={form}
        name="office-admin"
        layout="vertical"
        requiredMark={false}
        onFinish={(values: { username: string; name: string }) =>
          create.mutate({ officeId: office.id, ...values }, { onSuccess: setCreated })
        }
      >
        <Form.Item
          name="username"
          label="用户名"
          rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}
          extra="3–32 位字母、数字或 _ . -"
        >
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label="姓名" rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}>
          <Input maxLength={20} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}

/** 考试机构: every office with its hosts, state and counts (never a candidate's data); create, edit, pause, resume. */
export default function OfficesPage() {
  const offices = useOffices();
  const save = useSaveOffice();
  const { modal, message } = App.useApp();
  const [editing, setEditing] = useState<PlatformOffice | 'new' | null>(null);
  const [adminFor, setAdminFor] = useState<PlatformOffice | null>(null);

  const toggle = (office: PlatformOffice) => {
    const disabling = !office.disabled;
    void modal.confirm({
      title: disabling ? `暂停「${office.name}」的服务？` : `恢复「${office.name}」的服务？`,
      content: disabling
        ? '暂停后，该机构的网站显示“暂停服务”，考生和工作人员都无法使用；已有数据全部保留，恢复后即可继续使用。'
        : '恢复后，该机构的网站、考生和工作人员即可正常使用。',
      okText: disabling ? '暂停服务' : '恢复服务',
      okButtonProps: disabling ? { danger: true } : {},
      cancelText: '取消',
      onOk: () =>
        save.mutateAsync({ id: office.id, code: office.code, name: office.name, hosts: office.hosts, disabled: disabling }).then(() => {
          void message.success(disabling ? '已暂停服务' : '已恢复服务');
        }),
    });
  };

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">考试机构</h2>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
          新建考试机构
        </Button>
      </div>
      <Table<PlatformOffice>
        rowKey="id"
        loading={offices.isFetching}
        dataSource={offices.data?.list}
        pagination={false}
        columns={[
          { title: '代码', dataIndex: 'code' },
          { title: '名称', dataIndex: 'name' },
          {
            title: '绑定域名',
            dataIndex: 'hosts',
            render: (hosts: string[]) =>
              hosts.length === 0 ? <Typography.Text type="secondary">未绑定</Typography.Text> : hosts.map((h) => <Tag key={h}>{h}</Tag>),
          },
          {
            title: '状态',
            dataIndex: 'disabled',
            render: (disabled: boolean) => (disabled ? <Tag color="error">暂停服务</Tag> : <Tag color="success">正常</Tag>),
          },
          { title: '考试数', dataIndex: 'exams', align: 'right' },
          { title: '考生数', dataIndex: 'candidates', align: 'right' },
          {
            title: '操作',
            key: 'actions',
            render: (_v, office) => (
              <Space size={0} wrap>
                <Button type="link" onClick={() => setEditing(office)}>
                  编辑
                </Button>
                <Button type="link" onClick={() => setAdminFor(office)}>
                  创建管理员
                </Button>
                <Button type="link" danger={!office.disabled} onClick={() => toggle(office)}>
                  {office.disabled ? '恢复服务' : '暂停服务'}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {editing && <OfficeEditor office={editing} onClose={() => setEditing(null)} />}
      {adminFor && <AdminCreator office={adminFor} onClose={() => setAdminFor(null)} />}
    </div>
  );
}
