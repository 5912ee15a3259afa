import type { Application, ApplicationDraft } from '@zhikaoyun/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isConflict, saveApplication } from './api';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'error' } | { kind: 'conflict' };

const DEBOUNCE_MS = 800;
const RETRY_MS = 3000;

/**
 * Saves the draft on the server as the candidate types: debounced, one request at a time, the
 * latest form always winning, retried after a failure, and flushed when the page is hidden or
 * left. Nothing typed waits in the browser for longer than the debounce.
 *
 * Each save names the version of the form it was based on. When another tab or device saved
 * since, the server refuses it: nothing is retried or overwritten, and `onConflict` shows the
 * newer form (the page reloads it and calls `rebase` with its version).
 */
export function useAutosave(examId: number, opts: { onSaved?: (saved: Application) => void; onConflict?: () => void } = {}) {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const pending = useRef<ApplicationDraft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  /** The version the next save is based on; undefined until the page has read the application. */
  const version = useRef<number | undefined>(undefined);
  const handlers = useRef(opts);
  useEffect(() => {
    handlers.current = opts;
  });

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    if (inFlight.current) await inFlight.current;
    const form = pending.current;
    if (!form) return;
    pending.current = null;
    setState({ kind: 'saving' });
    inFlight.current = saveApplication(examId, form, undefined, true, version.current).then(
      (app) => {
        version.current = app.version;
        setState({ kind: 'saved', at: new Date() });
        // Other pages read the application from the cache: keep it the saved one.
        handlers.current.onSaved?.(app);
      },
      (err: unknown) => {
        if (isConflict(err)) {
          // Newer elsewhere: show it, never overwrite it with this tab's older copy.
          pending.current = null;
          setState({ kind: 'conflict' });
          handlers.current.onConflict?.();
          return;
        }
        // Keep what failed unless something newer is already waiting, and try again.
        pending.current ??= form;
        setState({ kind: 'error' });
        timer.current = setTimeout(() => void flush(), RETRY_MS);
      },
    );
    await inFlight.current;
    inFlight.current = null;
  }, [examId]);

  const schedule = useCallback(
    (form: ApplicationDraft) => {
      pending.current = form;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), DEBOUNCE_MS);
    },
    [flush],
  );

  /** The page read the application (first load, or the newer one after a conflict): save on top of it. */
  const rebase = useCallback((v: number) => {
    version.current = v;
  }, []);

  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onHide);
      void flush();
    };
  }, [flush]);

  return { state, schedule, flush, rebase, version };
}
