import { useSyncExternalStore } from 'react';

const noSubscribe = () => () => undefined;

/**
 * False while the page is the server's HTML (on the server, and while hydrating it), true once
 * the page runs in the browser. A control whose action needs the script says so until then
 * (aria-disabled), and a submit button does not submit the form natively (the form would be sent
 * as a page request, and what was typed lost).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscribe,
    () => true,
    () => false,
  );
}
