import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';

/**
 * Whether the page runs in the browser (true), or is the server's HTML: rendered on the server,
 * or being hydrated in the browser (false). By default true: a tree React renders from scratch in
 * the browser (a page the server did not render, a test).
 */
const Hydrated = createContext(true);

/**
 * False while the page is the server's HTML (on the server, and while hydrating it), true once
 * the page runs in the browser. A control whose action needs the script says so until then
 * (aria-disabled), and a submit button does not submit the form natively (the form would be sent
 * as a page request, and what was typed lost).
 */
export function useHydrated(): boolean {
  return useContext(Hydrated);
}

/** Around the tree the server renders. */
export function ServerRendered({ children }: { children: ReactNode }) {
  return <Hydrated.Provider value={false}>{children}</Hydrated.Provider>;
}

/**
 * Around the tree that hydrates the server's HTML: false while hydrating (so the first render is
 * the server's), then true. The switch is a transition: what changes then (countdowns, the guard,
 * a personal page's own data asked for) renders in slices of a few milliseconds instead of one
 * long task (React re-renders a useSyncExternalStore whose server value differs in one
 * synchronous pass, which is what this replaced).
 */
export function Hydrating({ children }: { children: ReactNode }) {
  const [done, setDone] = useState(false);
  useEffect(() => startTransition(() => setDone(true)), []);
  return <Hydrated.Provider value={done}>{children}</Hydrated.Provider>;
}
