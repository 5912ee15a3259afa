import { PendingFeature } from '../../../components/PendingFeature';

/** 个人中心: filled by the accounts issue. */
export default function PersonalCenterPage() {
  return <PendingFeature what="个人中心" />;
}
