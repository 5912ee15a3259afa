import { useCallback, useSyncExternalStore } from 'react';
import { writeStored } from './storage';

/**
 * 长辈模式 (large-text mode, decision 035): a class on <html> that the stylesheet enlarges the
 * candidate site by. public/elder-mode.js sets it before the first paint from the same key.
 */
const KEY = 'elder-mode';
const CLASS = 'elder-mode';
const listeners = new Set<() => void>();

const isOn = () => document.documentElement.classList.contains(CLASS);
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether the mode is on, and its switch; the server's HTML renders it off, and hydration then reads the page. */
export function useElderMode(): [boolean, () => void] {
  const on = useSyncExternalStore(subscribe, isOn, () => false);
  const toggle = useCallback(() => {
    const next = !isOn();
    document.documentElement.classList.toggle(CLASS, next);
    writeStored(KEY, next, 'local');
    listeners.forEach((l) => l());
  }, []);
  return [on, toggle];
}
