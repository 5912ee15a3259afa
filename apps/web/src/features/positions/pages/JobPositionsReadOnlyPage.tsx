import { PendingFeature } from '../../../components/PendingFeature';

/** 招聘岗位（只读）: filled by the registration-path issue. */
export default function JobPositionsReadOnlyPage() {
  return <PendingFeature what="招聘岗位查询" />;
}
