import { PendingFeature } from '../../../components/PendingFeature';

/** 通知公告详情: filled by the registration-path issue. */
export default function NoticeDetailPage() {
  return <PendingFeature what="通知公告" />;
}
