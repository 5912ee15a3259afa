import { PendingFeature } from '../../../components/PendingFeature';

/** 招聘岗位: filled by the registration-path issue. */
export default function JobPositionsPage() {
  return <PendingFeature what="招聘岗位查询" />;
}
