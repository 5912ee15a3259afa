import { PendingFeature } from '../../../components/PendingFeature';

/** 当前考试: filled by the registration-path issue. */
export default function ExamListPage() {
  return <PendingFeature what="考试列表" />;
}
