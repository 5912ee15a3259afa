import {
  BellOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  IdcardOutlined,
  LockOutlined,
  LogoutOutlined,
  RightOutlined,
  TrophyOutlined,
} from '@ant-design/icons';
import { Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { GroupTitle } from '../../../../components/GroupTitle';
import { IdPhotoField } from '../../../../components/IdPhotoField';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { MobileUserInfoCard } from '../../../../components/MobileUserInfoCard';
import { Button, buttonClass } from '../../../../components/plain/Button';
import { PendingLine } from '../../../../components/plain/Skeleton';
import { APPLICATION_STATES, DIALOG_WIDTH, photoLockOf } from '@zhikaoyun/shared';
import { lazyScoped } from '../../../../lib/lazy-scoped';
import { deferredFeedback } from '../../../../lib/feedback';
import { useHydrated } from '../../../../lib/hydrated';
import { useMyApplications } from '../../../../lib/api/applications-queries';
import { chooseExam } from '../../../../lib/api/exams';
import { useSysStore } from '../../../../lib/store';
import { badgeText, useUnreadCount } from '../../../../lib/api/notifications';
import { useUserInfo } from '../../../../lib/api/accounts';
import { exportMyData, logout } from '../api';
import { saveMyDataFile } from '../components/my-data-file';
import { useRevealAnswer } from '../components/reveal-answer';

// The page is built without antd's runtime (it arrives rendered and should hydrate quickly on a
// slow phone); its antd-built parts load when first shown, each with antd's scope: the drawers
// when opened, an application's card (its step bar) when the candidate has applications.
const EditProfileDrawer = lazyScoped(() => import('../components/EditProfileDrawer').then((m) => m.EditProfileDrawer));
const ChangePasswordDrawer = lazyScoped(() => import('../components/ChangePasswordDrawer').then((m) => m.ChangePasswordDrawer));
const DeleteAccountDrawer = lazyScoped(() => import('../components/DeleteAccountDrawer').then((m) => m.DeleteAccountDrawer));
const MyApplicationCard = lazyScoped(() => import('../../../../components/MyApplicationCard').then((m) => m.MyApplicationCard));

/**
 * A row of the personal center. One that leads to a page is a link, which works before the page
 * has hydrated (the server renders this page); one that acts waits for hydration, disabled until
 * then, so that an early tap is never silently lost.
 */
function ActionRow({
  icon,
  label,
  danger,
  badge,
  badgeLabel,
  ...target
}: {
  icon: ReactNode;
  label: string;
  danger?: boolean;
  badge?: string;
  /** What the badge says to a screen reader (by default a count of unread messages). */
  badgeLabel?: string;
} & ({ to: string; onClick?: never } | { onClick: () => void; to?: never })) {
  const hydrated = useHydrated();
  const className = `action-row${danger ? ' is-danger' : ''}`;
  const content = (
    <>
      <span className="action-row__icon" aria-hidden>
        {icon}
      </span>
      <span className="action-row__label">{label}</span>
      {badge && (
        <span className="zk-badge zk-badge--inline" aria-label={badgeLabel ?? `${badge} 条未读`}>
          {badge}
        </span>
      )}
      <RightOutlined className="action-row__arrow" aria-hidden />
    </>
  );
  if (target.to !== undefined)
    return (
      <Link className={className} to={target.to}>
        {content}
      </Link>
    );
  return (
    <button type="button" className={className} onClick={target.onClick} disabled={!hydrated}>
      {content}
    </button>
  );
}

/** 我的报名 until it is known: the size of the card for none (a candidate's first visit). */
function PendingApplications() {
  return (
    <MobileContainerCard>
      <div role="status" aria-busy="true" aria-label="我的报名加载中">
        <p className="personal-center__hint">
          <PendingLine />
        </p>
        {/* The card's button, unseen: the card is as high as it will be. */}
        <span className={buttonClass({ primary: true }, 'personal-center__unseen')} aria-hidden="true">
          <span>查看当前考试</span>
        </span>
      </div>
    </MobileContainerCard>
  );
}

/**
 * 个人中心: who I am (each field once), 我的报名, my ID photo, and what a candidate may change.
 * The server renders it without knowing who asks (entry-server.tsx): every part at its size, the
 * candidate's own values pending; the browser fills them in once the page runs and has read them.
 */
export default function PersonalCenterPage() {
  const { modal, message } = deferredFeedback;
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const user = useUserInfo();
  const mine = useMyApplications();
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [deleting, setDeleting] = useState(false);
  // The drawers' code loads when one is first opened, not with the page.
  const [opened, setOpened] = useState<ReadonlySet<'edit' | 'password' | 'delete'>>(new Set());
  const answer = useRevealAnswer();
  const unread = badgeText(useUnreadCount());
  // The server's HTML and its hydration know no one: the stored userInfo waits until the page runs.
  const info = hydrated ? (user.data ?? null) : null;
  // An application's next step depends on the photo: shown with the candidate's details.
  const applications = info && !mine.isLoading ? (mine.data ?? []) : undefined;

  function open(drawer: 'edit' | 'password' | 'delete') {
    setOpened((o) => new Set(o).add(drawer));
    if (drawer === 'edit') setEditing(true);
    if (drawer === 'password') setChangingPassword(true);
    if (drawer === 'delete') setDeleting(true);
  }

  async function downloadMyData() {
    try {
      const name = saveMyDataFile(await exportMyData());
      void message.success(`已下载：${name}`);
    } catch {
      // shown by the client
    }
  }

  // 准考证打印: the exam whose ticket can be printed now, else the latest with a ticket; its status
  // page leads with the ticket (or says when printing opens).
  const now = new Date().toISOString();
  const ticketed = (mine.data ?? []).filter((a) => APPLICATION_STATES[a.status].sits && a.ticketPrint !== null && !a.positionCancelled);
  const printable = ticketed.find(
    (a) => a.ticketPrint && a.ticketPrint.start <= now && (a.ticketPrint.end === null || now <= a.ticketPrint.end),
  );
  const ticketBadge = printable ? '可打印' : undefined;
  function openTicket() {
    const a = printable ?? ticketed[0];
    if (a) chooseExam(a.exam);
    void navigate('/current-exam');
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

  return (
    <div className="personal-center">
      {/* One card of identity: each field once (the base-info card would repeat name, photo, ID number, phone). */}
      <MobileUserInfoCard userInfo={info} revealAnswer={answer.reveal} />
      <GroupTitle>我的报名</GroupTitle>
      {applications === undefined ? (
        <PendingApplications />
      ) : applications.length ? (
        <Suspense fallback={<PendingApplications />}>
          {applications.map((a) => (
            <MyApplicationCard key={a.id} application={a} hasPhoto={info !== null && info.photo !== ''} />
          ))}
        </Suspense>
      ) : (
        <MobileContainerCard>
          <p className="personal-center__hint">您还没有报名任何考试。</p>
          <Button primary onClick={() => void navigate('/exam-list')}>
            <span>查看当前考试</span>
          </Button>
        </MobileContainerCard>
      )}
      <GroupTitle>证件照</GroupTitle>
      <MobileContainerCard>
        <IdPhotoField photo={info?.photo ?? ''} locked={photoLockOf(mine.data ?? [])} pending={info === null} />
      </MobileContainerCard>
      <MobileContainerCard className="action-list">
        <ActionRow icon={<BellOutlined aria-hidden />} label="我的消息" badge={unread} to="/messages" />
        <ActionRow
          icon={<IdcardOutlined aria-hidden />}
          label="准考证打印"
          badge={ticketBadge}
          badgeLabel="准考证可打印"
          onClick={openTicket}
        />
        <ActionRow icon={<TrophyOutlined aria-hidden />} label="成绩查询" to="/scores" />
        <ActionRow icon={<EditOutlined aria-hidden />} label="修改联系方式与密保" onClick={() => info && open('edit')} />
        <ActionRow icon={<LockOutlined aria-hidden />} label="修改密码" onClick={() => open('password')} />
        <ActionRow icon={<LogoutOutlined aria-hidden />} label="退出登录" onClick={confirmLogout} danger />
      </MobileContainerCard>
      <MobileContainerCard className="action-list">
        <p className="personal-center__hint">个人信息权利：您可以下载我们保存的关于您的全部信息，或注销账号并删除个人信息。</p>
        <ActionRow icon={<DownloadOutlined aria-hidden />} label="下载我的个人信息" onClick={() => void downloadMyData()} />
        <ActionRow icon={<DeleteOutlined aria-hidden />} label="注销账号" onClick={() => open('delete')} danger />
      </MobileContainerCard>
      <Suspense fallback={null}>
        {info && opened.has('edit') && <EditProfileDrawer open={editing} onClose={() => setEditing(false)} userInfo={info} />}
        {opened.has('password') && <ChangePasswordDrawer open={changingPassword} onClose={() => setChangingPassword(false)} />}
        {opened.has('delete') && <DeleteAccountDrawer open={deleting} onClose={() => setDeleting(false)} onDeleted={afterDeletion} />}
      </Suspense>
      {answer.dialog}
    </div>
  );
}
