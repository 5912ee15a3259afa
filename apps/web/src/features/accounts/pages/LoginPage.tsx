import { PendingFeature } from '../../../components/PendingFeature';

/** 登录: filled by the accounts issue. */
export default function LoginPage() {
  return <PendingFeature what="账号登录" />;
}
