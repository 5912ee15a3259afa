import type { Application, ApplicationDraft } from '@zhikaoyun/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { saveApplication } from './api';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'error' };

const DEBOUNCE_MS = 800;
const RETRY_MS = 3000;

/**
 * Saves the draft on the server as the candidate types: debounced, one request at a time, the
 * latest form always winning, retried after a failure, and flushed when the page is hidden or
 * left. Nothing typed waits in the browser for longer than the debounce.
 */
export function useAutosave(examId: number, onSaved?: (saved: Application) => void) {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const pending = useRef<ApplicationDraft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  const saved = useRef(onSaved);
  useEffect(() => {
    saved.current = onSaved;
  }, [onSaved]);

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
    inFlight.current = saveApplication(examId, form, undefined, true).then(
      (app) => {
        setState({ kind: 'saved', at: new Date() });
        // Other pages read the application from the cache: keep it the saved one.
        saved.current?.(app);
      },
      () => {
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

  return { state, schedule, flush };
}
