import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STAFF_ROLE_LABEL, STAFF_ROLES, staffInputSchema, type StaffInput, type StaffUser } from '@zhikaoyun/shared';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { consoleGet, consolePost } from '../../../lib/console-http';
import { zodRule } from '../../../lib/form-rules';
import { useStaffSession } from '../../../lib/staff-session';

const shape = staffInputSchema.shape;

/** 人员管理 (admins): the office's staff, their roles and the units a reviewer may review. */
export default function StaffManagementPage() {
  const client = useQueryClient();
  const me = useStaffSession((s) => s.staff);
  const { message } = App.useApp();
  const staff = useQuery({ queryKey: ['console', 'staff'], queryFn: () => consoleGet<StaffUser[]>('/api/admin/getStaffList') });
  const refresh = () => void client.invalidateQueries({ queryKey: ['console', 'staff'] });
  const save = useMutation({ mutationFn: (v: StaffInput) => consolePost<{ id: number }>('/api/admin/saveStaff', v), onSuccess: refresh });
  const disable = useMutation({
    mutationFn: (v: { id: number; disabled: boolean }) => consolePost<null>('/api/admin/setStaffDisabled', v),
    onSuccess: refresh,
  });
  const [editing, setEditing] = useState<StaffUser | null>(null);
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<StaffInput>();
  const role = Form.useWatch('role', form);

  useEffect(() => {
    if (open)
      form.setFieldsValue(editing ? { ...editing, password: '' } : { username: '', name: '', role: 'reviewer', units: [], password: '' });
  }, [open, editing, form]);

  const submit = (v: StaffInput) =>
    void save
      .mutateAsync({ ...v, ...(editing ? { id: editing.id } : {}), units: v.role === 'admin' ? [] : (v.units ?? []) })
      .then(() => {
        void message.success(editing ? '人员信息已保存' : '人员已添加');
        setOpen(false);
      })
      .catch(() => undefined);

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">人员管理</h2>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setEditing(null);
            setOpen(true);
          }}
        >
          添加人员
        </Button>
      </div>
      <Table
        rowKey="id"
        loading={staff.isLoading}
        dataSource={staff.data}
        pagination={false}
        columns={[
          { title: '用户名', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'name' },
          { title: '角色', render: (_: unknown, s: StaffUser) => STAFF_ROLE_LABEL[s.role] },
          {
            title: '审核范围',
            render: (_: unknown, s: StaffUser) => (s.role === 'admin' || s.units.length === 0 ? '全部单位' : s.units.join('、')),
          },
          { title: '状态', render: (_: unknown, s: StaffUser) => (s.disabled ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>) },
          {
            title: '操作',
            render: (_: unknown, s: StaffUser) => (
              <Space size={0}>
                <Button
                  type="link"
                  onClick={() => {
                    setEditing(s);
                    setOpen(true);
                  }}
                >
                  编辑
                </Button>
                {s.id !== me?.id &&
                  (s.disabled ? (
                    <Button type="link" onClick={() => void disable.mutateAsync({ id: s.id, disabled: false }).catch(() => undefined)}>
                      启用
                    </Button>
                  ) : (
                    <Popconfirm
                      title={`停用 ${s.name}？`}
                      description="停用后该账号立即退出，不能再登录。"
                      okText="停用"
                      cancelText="取消"
                      onConfirm={() => disable.mutateAsync({ id: s.id, disabled: true }).catch(() => undefined)}
                    >
                      <Button type="link" danger>
                        停用
                      </Button>
                    </Popconfirm>
                  ))}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        title={editing ? `编辑人员 ${editing.username}` : '添加人员'}
        open={open}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="保存"
        cancelText="取消"
        confirmLoading={save.isPending}
        destroyOnHidden
      >
        <Form form={form} name="staff-form" layout="vertical" onFinish={submit}>
          <Form.Item name="username" label="用户名" rules={[zodRule(shape.username)]}>
            <Input autoComplete="off" maxLength={32} />
          </Form.Item>
          <Form.Item name="name" label="姓名" rules={[zodRule(shape.name)]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="role" label="角色">
            <Select options={STAFF_ROLES.map((r) => ({ value: r, label: STAFF_ROLE_LABEL[r] }))} />
          </Form.Item>
          {role === 'reviewer' && (
            <Form.Item name="units" label="审核范围（招聘单位）" help="输入单位名称后回车；不填为全部单位">
              <Select mode="tags" open={false} suffixIcon={null} aria-label="审核范围" />
            </Form.Item>
          )}
          <Form.Item
            name="password"
            label={editing ? '重置密码（不修改请留空）' : '初始密码'}
            rules={[editing ? zodRule(shape.password) : { required: true, message: '请为新人员设置初始密码' }, zodRule(shape.password)]}
          >
            <Input.Password autoComplete="new-password" maxLength={128} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
