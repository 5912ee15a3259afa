import { STAFF_ROLE_LABEL, type StaffSecurityRow } from '@zhikaoyun/shared';
import { App, Button, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { formatDateTime } from '../../../../components/format';
import { useMayCall, useStaffSession } from '../../../../lib/staff-session';
import { useEndStaffSessions, useResetStaffTotp, useStaffSecurity, useUnlockStaff } from './api';

function SignInState({ row }: { row: StaffSecurityRow }) {
  if (row.lockedUntil) return <Tag color="error">已锁定至 {formatDateTime(row.lockedUntil).slice(11)}</Tag>;
  if (row.failures > 0) return <Tag color="warning">登录失败 {row.failures} 次</Tag>;
  return <Tag color="success">正常</Tag>;
}

/**
 * 安全管理 (the security role, decision 031): each staff member's sign-in as it stands — failed
 * sign-ins and a lockout, sessions still open, 两步验证 on or not — with 解锁, 结束会话 and
 * 重置两步验证 (a lost phone). Every action is in the audit log; nobody acts on their own account
 * here. Staff accounts themselves are 人员管理's (admins).
 */
export default function SecurityPage() {
  const me = useStaffSession((s) => s.staff);
  const { message } = App.useApp();
  const staff = useStaffSecurity();
  const unlock = useUnlockStaff();
  const end = useEndStaffSessions();
  const resetTotp = useResetStaffTotp();
  const mayResetTotp = useMayCall('/api/admin/resetStaffTotp');

  return (
    <div>
      <div className="console-toolbar">
        <h2 className="console-title">安全管理</h2>
      </div>
      <Typography.Paragraph type="secondary">
        {'登录失败次数过多的账号会被暂时锁定，须等待一段时间才能再试；核实是本人后可立即「解锁」。' +
          '「结束会话」让该人员在所有设备上退出，须重新登录。手机丢失或恢复码用完时，可「重置两步验证」，' +
          '该人员下次只凭密码登录并重新绑定。以上操作均记入审计日志。'}
      </Typography.Paragraph>
      <Table<StaffSecurityRow>
        rowKey="id"
        loading={staff.isLoading}
        dataSource={staff.data}
        pagination={false}
        columns={[
          { title: '用户名', dataIndex: 'username' },
          { title: '姓名', dataIndex: 'name' },
          { title: '角色', render: (_, s) => STAFF_ROLE_LABEL[s.role] },
          { title: '账号', render: (_, s) => (s.disabled ? <Tag>已停用</Tag> : <Tag color="green">启用</Tag>) },
          { title: '登录状态', render: (_, s) => <SignInState row={s} /> },
          {
            title: '在线会话',
            render: (_, s) =>
              s.sessions === 0 ? '无' : `${s.sessions} 个${s.lastSeenAt ? `（最近 ${formatDateTime(s.lastSeenAt)}）` : ''}`,
          },
          { title: '两步验证', render: (_, s) => (s.totpEnrolled ? <Tag color="blue">已开启</Tag> : <Tag>未开启</Tag>) },
          {
            title: '操作',
            render: (_, s) =>
              s.id === me?.id ? (
                <Typography.Text type="secondary">本人</Typography.Text>
              ) : (
                <Space size={0}>
                  <Popconfirm
                    title={`解锁 ${s.name}？`}
                    description="清除其登录失败记录，所有地址可立即再试。"
                    okText="解锁"
                    cancelText="取消"
                    onConfirm={() =>
                      unlock
                        .mutateAsync(s.id)
                        .then(() => void message.success(`已解锁 ${s.name}`))
                        .catch(() => undefined)
                    }
                  >
                    <Button type="link" disabled={s.failures === 0 && !s.lockedUntil}>
                      解锁
                    </Button>
                  </Popconfirm>
                  <Popconfirm
                    title={`结束 ${s.name} 的全部会话？`}
                    description="该人员将在所有设备上退出，须重新登录。"
                    okText="结束会话"
                    cancelText="取消"
                    onConfirm={() =>
                      end
                        .mutateAsync(s.id)
                        .then(() => void message.success(`已结束 ${s.name} 的会话`))
                        .catch(() => undefined)
                    }
                  >
                    <Button type="link" danger disabled={s.sessions === 0}>
                      结束会话
                    </Button>
                  </Popconfirm>
                  {mayResetTotp && s.totpEnrolled && (
                    <Popconfirm
                      title={`重置 ${s.name} 的两步验证？`}
                      description="用于手机丢失等情况。重置后该账号立即退出，下次登录只需密码，并可重新绑定。"
                      okText="重置"
                      cancelText="取消"
                      onConfirm={() =>
                        resetTotp
                          .mutateAsync(s.id)
                          .then(() => void message.success(`已重置 ${s.name} 的两步验证`))
                          .catch(() => undefined)
                      }
                    >
                      <Button type="link" danger>
                        重置两步验证
                      </Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
          },
        ]}
      />
    </div>
  );
}
