import { ForcedTotpEnrollment, TotpButton } from '../../../../components/console/TotpDialogs';
import { usePlatformSession } from '../../../../lib/platform-session';
import { confirmPlatformTotp, platformTotpStatusKey, startPlatformTotp, usePlatformLogout, usePlatformTotpStatus } from './api';

const FILE_NAME = '两步验证恢复码-平台管理员.txt';

/** In production the operator enrolls a second factor before anything else: only this until done. */
export function PlatformForcedTotpEnrollment() {
  const totpEnrolled = usePlatformSession((s) => s.totpEnrolled);
  const logout = usePlatformLogout();
  return (
    <ForcedTotpEnrollment
      notice="平台管理员登录时除密码外还需输入手机验证器 App 中的动态验证码。请先完成绑定，再使用平台管理后台。"
      start={startPlatformTotp}
      confirm={confirmPlatformTotp}
      done={totpEnrolled}
      fileName={FILE_NAME}
      onLogout={() => logout.mutate()}
    />
  );
}

/** 两步验证 in the platform console's header. */
export function PlatformTotpButton() {
  return (
    <TotpButton
      start={startPlatformTotp}
      confirm={confirmPlatformTotp}
      fileName={FILE_NAME}
      useStatus={usePlatformTotpStatus}
      statusKey={platformTotpStatusKey}
      enrolledNote="，请妥善保管。"
    />
  );
}
