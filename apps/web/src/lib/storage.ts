import { STORAGE_PREFIX } from '@zhikaoyun/shared';

export type StorageKind = 'session' | 'local';

/** Every browser storage key carries the product-and-version prefix; values are JSON text. */
export function storageKey(key: string): string {
  return `${STORAGE_PREFIX}${key}`;
}

function area(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    // Storage can be switched off (private mode in some browsers); the app still runs.
    return null;
  }
}

export function readStored<T>(key: string, kind: StorageKind = 'session'): T | null {
  const raw = area(kind)?.getItem(storageKey(key));
  if (raw === null || raw === undefined) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: unknown, kind: StorageKind = 'session'): void {
  try {
    area(kind)?.setItem(storageKey(key), JSON.stringify(value));
  } catch {
    // A full or disabled storage must not break the page.
  }
}

export function removeStored(key: string, kind: StorageKind = 'session'): void {
  area(kind)?.removeItem(storageKey(key));
}

/** A Storage-like view with prefixed keys, for zustand's persist middleware. */
export function prefixedStorage(kind: StorageKind) {
  return {
    getItem: (name: string) => area(kind)?.getItem(storageKey(name)) ?? null,
    setItem: (name: string, value: string) => {
      try {
        area(kind)?.setItem(storageKey(name), value);
      } catch {
        // as above
      }
    },
    removeItem: (name: string) => area(kind)?.removeItem(storageKey(name)),
  };
}

/** Keys of what one candidate left in this tab (an unsaved change): removed when they log out. */
export const PERSONAL_PREFIX = 'mine:';

export function removePersonalStored(): void {
  const store = area('session');
  if (!store) return;
  const prefix = storageKey(PERSONAL_PREFIX);
  const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => k?.startsWith(prefix) === true);
  for (const k of keys) store.removeItem(k);
}
