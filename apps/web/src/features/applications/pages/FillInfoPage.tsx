import { PendingFeature } from '../../../components/PendingFeature';

/** 填写报考信息: filled by the registration-path issue. */
export default function FillInfoPage() {
  return <PendingFeature what="报考信息填写" />;
}
