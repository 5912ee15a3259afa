import { DeleteOutlined, DownloadOutlined, EditOutlined, LockOutlined, LogoutOutlined, RightOutlined } from '@ant-design/icons';
import { App, Skeleton } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { MobileBaseInfoCard } from '../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { MobileUserInfoCard } from '../../../components/MobileUserInfoCard';
import { DIALOG_WIDTH } from '@zhikaoyun/shared';
import { useSysStore } from '../../../lib/store';
import { exportMyData, logout, useUserInfo } from '../api';
import { ChangePasswordDrawer } from '../components/ChangePasswordDrawer';
import { DeleteAccountDrawer } from '../components/DeleteAccountDrawer';
import { saveMyDataFile } from '../components/my-data-file';
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
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const user = useUserInfo();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [deleting, setDeleting] = useState(false);

  async function downloadMyData() {
    try {
      const name = saveMyDataFile(await exportMyData());
      void message.success(`已下载：${name}`);
    } catch {
      // shown by the client
    }
  }

  function afterDeletion() {
    setDeleting(false);
    useSysStore.getState().logout();
    navigate('/login', { replace: true });
  }

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
      <MobileContainerCard className="action-list">
        <p className="personal-center__hint">个人信息权利：您可以下载我们保存的关于您的全部信息，或注销账号并删除个人信息。</p>
        <ActionRow icon={<DownloadOutlined />} label="下载我的个人信息" onClick={() => void downloadMyData()} />
        <ActionRow icon={<DeleteOutlined />} label="注销账号" onClick={() => setDeleting(true)} danger />
      </MobileContainerCard>
      <EditProfileDrawer open={editing} onClose={() => setEditing(false)} userInfo={user.data} />
      <ChangePasswordDrawer open={changingPassword} onClose={() => setChangingPassword(false)} />
      <DeleteAccountDrawer open={deleting} onClose={() => setDeleting(false)} onDeleted={afterDeletion} />
    </div>
  );
}
