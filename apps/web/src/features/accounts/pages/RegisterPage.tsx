import { PendingFeature } from '../../../components/PendingFeature';

/** 注册账号: filled by the accounts issue. */
export default function RegisterPage() {
  return <PendingFeature what="账号注册" />;
}
