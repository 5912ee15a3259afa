import { PlusOutlined } from '@ant-design/icons';
import {
  STAFF_PASSWORD_HINT,
  STAFF_ROLE_LABEL,
  STAFF_ROLES,
  staffInputSchema,
  staffPasswordFor,
  type StaffInput,
  type StaffRole,
  type StaffUser,
} from '@zhikaoyun/shared';
import { App, Button, Form, Input, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useEffect } from 'react';
import { useMatch } from 'react-router';
import { ButtonLink } from '../../../../components/console/ButtonLink';
import { ConsoleNotFound } from '../../../../components/console/ConsoleResult';
import { OPENED_FROM_LIST, useCloseDrawer, useLastDefined } from '../../../../components/console/url-state';
import { zodMessage, zodRule } from '../../../../lib/form-rules';
import { useStaffSession } from '../../../../lib/staff-session';
import { useSaveStaff, useSetStaffDisabled, useStaffList, useUnitList } from './api';
import { FormModal } from '../../../../components/console/FormModal';

const shape = staffInputSchema.shape;
const LIST = '/admin/staff';

/** What each role does (三权分立), under the role picker. */
const ROLE_DUTIES: Record<StaffRole, string> = {
  admin: '考务工作与人员账号；不能查看审计日志，不能解锁人员或修改安全策略。',
  reviewer: '在所分配的招聘单位内审核报名。',
  security: '安全管理：解锁人员、结束会话、重置两步验证等登录安全事务；不接触考试与考生信息。',
  auditor: '审计日志：查看与导出，不能做其他任何操作。',
};

/**
 * 人员管理 (admins): the office's staff, their roles and the units a reviewer may review. An admin
 * creates staff of every role (安全管理员 and 审计管理员 too, decision 031) but never changes
 * their own role (the server refuses it as well). The editor is `/admin/staff/new` or
 * `/admin/staff/:staffId`.
 */
export default function StaffManagementPage() {
  const me = useStaffSession((s) => s.staff);
  const updateProfile = useStaffSession((s) => s.updateProfile);
  const { message } = App.useApp();
  const staff = useStaffList();
  const save = useSaveStaff();
  const disable = useSetStaffDisabled();
  const isNew = useMatch(`${LIST}/new`) !== null;
  const editMatch = useMatch(`${LIST}/:staffId`);
  const editId = isNew ? undefined : editMatch?.params.staffId;
  const found = editId === undefined ? undefined : staff.data?.find((s) => s.id === Number(editId));
  const open = isNew || found !== undefined;
  // What the modal shows, kept while it animates out after its address is left.
  const target = useLastDefined<StaffUser | 'new'>(isNew ? 'new' : found);
  const editing = target === 'new' ? null : (target ?? null);
  const close = useCloseDrawer(LIST);
  const [form] = Form.useForm<StaffInput>();
  const role = Form.useWatch('role', form);
  const units = useUnitList(open);

  useEffect(() => {
    if (open)
      form.setFieldsValue(editing ? { ...editing, password: '' } : { username: '', name: '', role: 'reviewer', units: [], password: '' });
  }, [open, editing, form]);

  const submit = (v: StaffInput) =>
    void save
      .mutateAsync({ ...v, ...(editing ? { id: editing.id } : {}), units: v.role === 'reviewer' ? (v.units ?? []) : [] })
      .then(() => {
        if (editing && editing.id === me?.id) updateProfile({ username: v.username.trim().toLowerCase(), name: v.name });
        void message.success(editing ? '人员信息已保存' : '人员已添加');
        close();
      })
      .catch(() => undefined);

  // A link to someone this office does not have.
  if (editId !== undefined && staff.data && !found) return <ConsoleNotFound />;

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">人员管理</h2>
        <ButtonLink type="primary" icon={<PlusOutlined aria-hidden />} to={`${LIST}/new`} state={OPENED_FROM_LIST}>
          添加人员
        </ButtonLink>
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
            render: (_: unknown, s: StaffUser) =>
              s.role === 'admin'
                ? '全部单位'
                : s.role !== 'reviewer'
                  ? '—'
                  : s.units.length === 0
                    ? '未分配（看不到任何报名）'
                    : s.units.join('、'),
          },
          { title: '状态', render: (_: unknown, s: StaffUser) => (s.disabled ? <Tag>已停用</Tag> : <Tag color="green">正常</Tag>) },
          {
            title: '两步验证',
            render: (_: unknown, s: StaffUser) => (s.totpEnrolled ? <Tag color="blue">已开启</Tag> : <Tag>未开启</Tag>),
          },
          {
            title: '操作',
            render: (_: unknown, s: StaffUser) => (
              <Space size={0}>
                <ButtonLink type="link" to={`${LIST}/${s.id}`} state={OPENED_FROM_LIST}>
                  编辑
                </ButtonLink>
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
      <FormModal
        title={editing ? `编辑人员 ${editing.username}` : '添加人员'}
        open={open}
        onClose={close}
        form={form}
        saving={save.isPending}
      >
        <Form form={form} name="staff-form" layout="vertical" onFinish={submit}>
          <Form.Item
            name="username"
            label="用户名"
            rules={[zodRule(shape.username)]}
            extra={editing ? '用户名不区分大小写，保存为小写；改名后旧用户名不能再登录。' : '用户名不区分大小写，保存为小写。'}
          >
            <Input autoComplete="off" maxLength={32} />
          </Form.Item>
          <Form.Item name="name" label="姓名" rules={[zodRule(shape.name)]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item
            name="role"
            label="角色"
            extra={editing && editing.id === me?.id ? '不能修改自己的角色，请由其他管理员修改。' : ROLE_DUTIES[role ?? 'reviewer']}
          >
            <Select
              aria-label="角色"
              disabled={editing !== null && editing.id === me?.id}
              options={STAFF_ROLES.map((r) => ({ value: r, label: STAFF_ROLE_LABEL[r] }))}
            />
          </Form.Item>
          {role === 'reviewer' && (
            <Form.Item name="units" label="审核范围（招聘单位）" help="从本机构岗位的招聘单位中选择（可输入筛选）；不选则看不到任何报名">
              {/* Chosen, not typed: a misspelt unit would silently give a reviewer who sees nothing. */}
              <Select
                mode="multiple"
                showSearch
                aria-label="审核范围"
                placeholder="选择招聘单位"
                loading={units.isLoading}
                options={[...new Set([...(units.data ?? []), ...(editing?.units ?? [])])].map((u) => ({ value: u, label: u }))}
              />
            </Form.Item>
          )}
          {/* The staff rule for the username in the form (packages/shared staff-password.ts); the person's last passwords only the server knows. */}
          <Form.Item
            name="password"
            label={editing ? '重置密码（不修改请留空）' : '初始密码'}
            dependencies={['username']}
            rules={[
              ...(editing ? [] : [{ required: true, message: '请为新人员设置初始密码' }]),
              ({ getFieldValue }) => ({
                validator: async (_rule, value: unknown) => {
                  if (value === undefined || value === '') return;
                  const message = zodMessage(staffPasswordFor(String(getFieldValue('username') ?? '')), value);
                  if (message !== undefined) throw new Error(message);
                },
              }),
            ]}
            extra={STAFF_PASSWORD_HINT}
          >
            <Input.Password autoComplete="new-password" maxLength={128} />
          </Form.Item>
        </Form>
      </FormModal>
    </div>
  );
}
