import { PendingFeature } from '../../../components/PendingFeature';

/** 确认报考信息: filled by the registration-path issue. */
export default function ConfirmInfoPage() {
  return <PendingFeature what="报考信息确认" />;
}
