import type { AxiosResponse } from 'axios';
import { ErrorCode, PASSWORD_CHANGE_DUE_TEXT, type PasswordChangeDue } from '@zhikaoyun/shared';

/** Why a console's session ended without 退出: what its sign-in page says. */
export type SignedOutReason = 'idle' | 'ended';

/** What the sign-in page says after a session ended by itself; the next sign-in returns to the page that was open. */
export const SIGNED_OUT_TEXT: Readonly<Record<SignedOutReason, string>> = {
  idle: '您已较长时间未操作，为保护考生信息，系统已自动退出登录。请重新登录，登录后将回到刚才的页面。',
  ended: '登录已失效（可能已在其他地方登录，或密码已被修改），请重新登录。',
};

/**
 * Follows a console's session as the server reports it (decision 030): each staff answer says how
 * long the session lasts unused (`X-Session-Valid-For`, seconds), so the console signs itself out
 * when that time passes with no call, rather than leaving personal data on an unattended screen
 * until the next click. An errorCode 2006 in the middle of a session (the password expired) opens
 * the password change.
 */
export function followSession(on: { ended: (reason: SignedOutReason) => void; passwordChangeDue: (due: PasswordChangeDue) => void }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline = Number.POSITIVE_INFINITY;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
    deadline = Number.POSITIVE_INFINITY;
  };
  return {
    /** Every answer of the console's client, before its envelope is read. */
    observe(response: AxiosResponse) {
      const header: unknown = response.headers['x-session-valid-for'];
      const seconds = Number(header);
      if (header !== undefined && Number.isFinite(seconds)) {
        clearTimeout(timer);
        deadline = Date.now() + seconds * 1000;
        // A second late: the server has surely ended it by then.
        timer = setTimeout(
          () => {
            stop();
            on.ended('idle');
          },
          seconds * 1000 + 1000,
        );
      }
      const body = response.data as { success?: boolean; errorCode?: unknown; msg?: unknown } | undefined;
      if (body?.success === false && Number(body.errorCode) === ErrorCode.PasswordChangeRequired)
        on.passwordChangeDue(body.msg === PASSWORD_CHANGE_DUE_TEXT.expired ? 'expired' : 'initial');
    },
    /** A call refused for want of a session: past the deadline (a sleeping laptop's late timer), it was the idle limit. */
    unauthorized() {
      const idle = Date.now() >= deadline;
      stop();
      on.ended(idle ? 'idle' : 'ended');
    },
    /** Signed in or out: no timer of the last session is left. */
    stop,
  };
}
