import { PendingFeature } from '../../../components/PendingFeature';

/** 通知公告: filled by the registration-path issue. */
export default function NoticeListPage() {
  return <PendingFeature what="通知公告" />;
}
