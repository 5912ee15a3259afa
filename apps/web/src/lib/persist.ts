import { createJSONStorage, type PersistOptions } from 'zustand/middleware';
import { prefixedStorage, type StorageKind } from './storage';

/** The spec's store persistence option. */
export interface StorePersistOption<S> {
  /** Defaults to the store id. */
  key?: string;
  /** 'session' by default. */
  storage?: StorageKind;
  /** Fields to keep; all (data fields) when empty. */
  paths?: readonly (keyof S)[];
}

/**
 * Turns the spec's option into zustand's persist options: restored when the store is created
 * (storage is synchronous, so before the first render) and written back on every change.
 */
export function persistOptions<S extends object>(id: string, option: StorePersistOption<S> = {}): PersistOptions<S, Partial<S>> {
  const paths = option.paths ?? [];
  return {
    name: option.key ?? id,
    storage: createJSONStorage<Partial<S>>(() => prefixedStorage(option.storage ?? 'session')),
    partialize: (state) => {
      const entries = Object.entries(state).filter(
        ([k, v]) => typeof v !== 'function' && (paths.length === 0 || paths.includes(k as keyof S)),
      );
      return Object.fromEntries(entries) as Partial<S>;
    },
  };
}
