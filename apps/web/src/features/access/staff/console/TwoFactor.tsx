import { ForcedTotpEnrollment as Forced, TotpButton as Button } from '../../../../components/console/TotpDialogs';
import { totpKeys } from '../../../../lib/api/console-keys';
import { useStaffSession } from '../../../../lib/staff-session';
import { confirmTotp, startTotp, useStaffLogout, useTotpStatus } from './api';

const fileName = (username: string | undefined) => `两步验证恢复码-${username ?? 'staff'}.txt`;

/**
 * When a second factor is due (production admins, or the office's rule): the console shows only
 * this until it is enrolled; the server refuses every other call meanwhile.
 */
export function ForcedTotpEnrollment() {
  const username = useStaffSession((s) => s.staff?.username);
  const totpEnrolled = useStaffSession((s) => s.totpEnrolled);
  const logout = useStaffLogout();
  return (
    <Forced
      notice="为保护考生信息，本账号登录时除密码外还需输入手机验证器 App 中的动态验证码。请先完成绑定，再使用管理后台。"
      start={startTotp}
      confirm={confirmTotp}
      done={totpEnrolled}
      fileName={fileName(username)}
      onLogout={() => logout.mutate()}
    />
  );
}

/** 两步验证 in the console's header, beside 修改密码. */
export function TotpButton() {
  const username = useStaffSession((s) => s.staff?.username);
  return (
    <Button
      start={startTotp}
      confirm={confirmTotp}
      fileName={fileName(username)}
      useStatus={useTotpStatus}
      statusKey={totpKeys.status()}
      enrolledNote="；更换手机或恢复码用完时，请联系安全管理员重置两步验证后重新绑定。"
    />
  );
}
