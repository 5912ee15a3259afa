import {
  BellOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  LockOutlined,
  LogoutOutlined,
  RightOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { App, Button, Skeleton } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { GroupTitle } from '../../../components/GroupTitle';
import { IdPhotoField } from '../../../components/IdPhotoField';
import { MobileContainerCard } from '../../../components/MobileContainerCard';
import { MyApplicationCard } from '../../../components/MyApplicationCard';
import { MobileUserInfoCard } from '../../../components/MobileUserInfoCard';
import { DIALOG_WIDTH, photoLockOf } from '@zhikaoyun/shared';
import { useMyApplications } from '../../../lib/journey-api';
import { useSysStore } from '../../../lib/store';
import { badgeText, useUnreadCount } from '../../../lib/unread';
import { exportMyData, logout, useUserInfo } from '../api';
import { ChangePasswordDrawer } from '../components/ChangePasswordDrawer';
import { DeleteAccountDrawer } from '../components/DeleteAccountDrawer';
import { saveMyDataFile } from '../components/my-data-file';
import { EditProfileDrawer } from '../components/EditProfileDrawer';
import { useRevealAnswer } from '../components/RevealAnswerDialog';

function ActionRow({
  icon,
  label,
  onClick,
  danger,
  badge,
}: {
  icon: ReactNode;
  label: string;
  onClick: () => void;
  danger?: boolean;
  badge?: string;
}) {
  return (
    <button type="button" className={`action-row${danger ? ' is-danger' : ''}`} onClick={onClick}>
      <span className="action-row__icon" aria-hidden>
        {icon}
      </span>
      <span className="action-row__label">{label}</span>
      {badge && (
        <span className="zk-badge zk-badge--inline" aria-label={`${badge} 条未读`}>
          {badge}
        </span>
      )}
      <RightOutlined className="action-row__arrow" aria-hidden />
    </button>
  );
}

/** 个人中心: who I am (each field once), 我的报名, my ID photo, and what a candidate may change. */
export default function PersonalCenterPage() {
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const user = useUserInfo();
  const mine = useMyApplications();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const answer = useRevealAnswer();
  const unread = badgeText(useUnreadCount());

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
    void navigate('/login', { replace: true });
  }

  function confirmLogout() {
    modal.confirm({
      title: '退出登录',
      content: '确定要退出当前账号吗？',
      okText: '退出',
      cancelText: '取消',
      width: DIALOG_WIDTH,
      onOk: () => {
        const { token } = useSysStore.getState();
        useSysStore.getState().logout();
        void navigate('/login', { replace: true });
        void logout(token).catch(() => undefined);
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
      {/* One card of identity: each field once (the base-info card would repeat name, photo, ID number, phone). */}
      <MobileUserInfoCard userInfo={user.data} revealAnswer={answer.reveal} />
      <GroupTitle>我的报名</GroupTitle>
      {mine.isLoading ? (
        <MobileContainerCard>
          <Skeleton active paragraph={{ rows: 3 }} />
        </MobileContainerCard>
      ) : mine.data?.length ? (
        mine.data.map((a) => <MyApplicationCard key={a.id} application={a} hasPhoto={user.data.photo !== ''} />)
      ) : (
        <MobileContainerCard>
          <p className="personal-center__hint">您还没有报名任何考试。</p>
          <Button type="primary" onClick={() => void navigate('/exam-list')}>
            查看当前考试
          </Button>
        </MobileContainerCard>
      )}
      <GroupTitle>证件照</GroupTitle>
      <MobileContainerCard>
        <IdPhotoField photo={user.data.photo} locked={photoLockOf(mine.data ?? [])} />
      </MobileContainerCard>
      <MobileContainerCard className="action-list">
        <ActionRow icon={<BellOutlined />} label="我的消息" badge={unread} onClick={() => void navigate('/messages')} />
        <ActionRow icon={<TrophyOutlined />} label="成绩查询" onClick={() => void navigate('/scores')} />
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
      {answer.dialog}
    </div>
  );
}
