import { EditOutlined, LockOutlined, LogoutOutlined, RightOutlined } from '@ant-design/icons';
import { App, Skeleton } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { MobileBaseInfoCard } from '../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { MobileUserInfoCard } from '../../../components/MobileUserInfoCard';
import { DIALOG_WIDTH } from '@zhikaoyun/shared';
import { useSysStore } from '../../../lib/store';
import { logout, useUserInfo } from '../api';
import { ChangePasswordDrawer } from '../components/ChangePasswordDrawer';
import { EditProfileDrawer } from '../components/EditProfileDrawer';
import { PhotoUploadButton } from '../components/PhotoUploadButton';

function ActionRow({ icon, label, onClick, danger }: { icon: ReactNode; label: string; onClick: () => void; danger?: boolean }) {
  return (
    <button type="button" className={`action-row${danger ? ' is-danger' : ''}`} onClick={onClick}>
      <span className="action-row__icon" aria-hidden>
        {icon}
      </span>
      <span className="action-row__label">{label}</span>
      <RightOutlined className="action-row__arrow" aria-hidden />
    </button>
  );
}

/** 个人中心: both info cards of the spec, and what a candidate may change. */
export default function PersonalCenterPage() {
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const user = useUserInfo();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);

  function confirmLogout() {
    modal.confirm({
      title: '退出登录',
      content: '确定要退出当前账号吗？',
      okText: '退出',
      cancelText: '取消',
      width: DIALOG_WIDTH,
      onOk: async () => {
        await logout().catch(() => undefined);
        useSysStore.getState().logout();
        navigate('/login', { replace: true });
      },
    });
  }

  if (!user.data) {
    return (
      <MobileContainerCard>
        <Skeleton active avatar paragraph={{ rows: 5 }} />
      </MobileContainerCard>
    );
  }

  return (
    <div className="personal-center">
      <MobileUserInfoCard userInfo={user.data} />
      <MobileBaseInfoCard userInfo={user.data} showTitle={false} />
      <MobileContainerCard>
        <PhotoUploadButton hasPhoto={user.data.photo !== ''} />
        <p className="personal-center__hint">请上传近期免冠正面证件照，JPG 或 PNG 格式，不超过 5 MB。</p>
      </MobileContainerCard>
      <MobileContainerCard className="action-list">
        <ActionRow icon={<EditOutlined />} label="修改联系方式与密保" onClick={() => setEditing(true)} />
        <ActionRow icon={<LockOutlined />} label="修改密码" onClick={() => setChangingPassword(true)} />
        <ActionRow icon={<LogoutOutlined />} label="退出登录" onClick={confirmLogout} danger />
      </MobileContainerCard>
      <EditProfileDrawer open={editing} onClose={() => setEditing(false)} userInfo={user.data} />
      <ChangePasswordDrawer open={changingPassword} onClose={() => setChangingPassword(false)} />
    </div>
  );
}
