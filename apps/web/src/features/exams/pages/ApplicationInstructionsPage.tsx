import { PendingFeature } from '../../../components/PendingFeature';

/** 报考须知: filled by the registration-path issue. */
export default function ApplicationInstructionsPage() {
  return <PendingFeature what="报考须知" />;
}
