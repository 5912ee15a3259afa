import { PendingFeature } from '../../../components/PendingFeature';

/** 报考状态: filled by the registration-path issue. */
export default function CurrentExamPage() {
  return <PendingFeature what="报考状态查询" />;
}
