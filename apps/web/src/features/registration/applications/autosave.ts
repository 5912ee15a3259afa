import { applicationDraftSchema, FORM_FIELD_LABEL, type Application, type ApplicationDraft, type FormField } from '@zhikaoyun/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { PERSONAL_PREFIX, readStored, removeStored, writeStored } from '../../../lib/storage';
import { useSysStore } from '../../../lib/store';
import { fetchApplication, isConflict, saveApplication } from './api';

/** `pending`: a change waits for the debounce (or for the save in flight) and is not saved yet. */
export type SaveState =
  { kind: 'idle' } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'error' } | { kind: 'conflict' };

const DEBOUNCE_MS = 800;
const RETRY_MS = 3000;
/**
 * A keepalive request's body must stay under 64 KiB (and all of the page's keepalive bodies in
 * flight together): the draft schema bounds a valid form to a few KiB, this margin keeps a form
 * that is somehow larger from failing outright; it is then sent as an ordinary request.
 */
const KEEPALIVE_MAX_BYTES = 48 * 1024;

/**
 * What was not yet saved when the page was hidden, kept in session storage (this tab only) in case
 * the page is then unloaded. `base`: the version the unsaved change was made on; `sent`: the form
 * of the save that was in flight then (based on `base`), if any; `form`: the latest form.
 */
interface KeptDraft {
  owner: number;
  base: number;
  sent: ApplicationDraft | null;
  form: ApplicationDraft;
}

// Personal: removed from the tab when the candidate logs out (lib/store.ts).
const draftKey = (examId: number) => `${PERSONAL_PREFIX}autosave-draft-${examId}`;
const DRAFT_FIELDS = Object.keys(applicationDraftSchema.shape) as (keyof ApplicationDraft)[];

/** The form as the server keeps it: its own fields only, and no empty (undefined) ones. */
function canonical(form: ApplicationDraft): string {
  return JSON.stringify(DRAFT_FIELDS.map((f) => [f, form[f] ?? null]));
}

/** A kept change to put back; `late`: the save in flight at unload, should it land only now. */
export interface KeptRestore {
  restore: ApplicationDraft;
  late: { version: number; form: ApplicationDraft } | null;
}

const fitsKeepalive = (form: ApplicationDraft) => new Blob([JSON.stringify(form)]).size <= KEEPALIVE_MAX_BYTES;

/**
 * What the page should do with the change a previous visit of this tab left unsaved, given the
 * application as the server has it now: `restore` it (nothing newer was saved, or only that
 * visit's own save in flight landed), or show that a newer form from elsewhere replaced it
 * (`conflict`): never an overwrite of it. Read once: the kept draft is removed.
 */
export function takeKeptDraft(examId: number, saved: Application | null): KeptRestore | 'conflict' | null {
  const kept = readStored<KeptDraft>(draftKey(examId));
  removeStored(draftKey(examId));
  const owner = useSysStore.getState().userInfo?.id;
  if (!kept || owner === undefined || kept.owner !== owner) return null;
  const server = saved?.form ?? {};
  if (canonical(kept.form) === canonical(server)) return null;
  const version = saved?.version ?? 0;
  const ownSaveLanded = kept.sent !== null && version === kept.base + 1 && canonical(kept.sent) === canonical(server);
  if (ownSaveLanded) return { restore: kept.form, late: null };
  // The save in flight may not have landed yet: when it does, it is this tab's own, not a conflict.
  if (version === kept.base) return { restore: kept.form, late: kept.sent && { version: version + 1, form: kept.sent } };
  return 'conflict';
}

/**
 * Saves the draft on the server as the candidate types: debounced, one request at a time, the
 * latest form always winning, retried after a failure, and flushed when the page is hidden or
 * left. Nothing typed waits in the browser for longer than the debounce.
 *
 * Saves are keepalive requests, so that one sent as the page unloads (a reload, a closed tab)
 * still reaches the server. A change that cannot be sent then, because an earlier save is still
 * in flight (the next one must name the version that one answers), is kept in session storage
 * for `takeKeptDraft` when the page is next opened in this tab.
 *
 * Each save names the version of the form it was based on. When another tab or device saved
 * since, the server refuses it: nothing is retried or overwritten, and `onConflict` shows the
 * newer form (the page reloads it and calls `rebase` with its version).
 */
export function useAutosave(examId: number, opts: { onSaved?: (saved: Application) => void; onConflict?: () => void } = {}) {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const pending = useRef<ApplicationDraft | null>(null);
  /** The form of the save in flight. */
  const sending = useRef<ApplicationDraft | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inFlight = useRef<Promise<void> | null>(null);
  /** The version the next save is based on; undefined until the page has read the application. */
  const version = useRef<number | undefined>(undefined);
  /** This tab's save from before an unload that may land after the page has read the application. */
  const late = useRef<KeptRestore['late']>(null);
  const handlers = useRef(opts);
  useEffect(() => {
    handlers.current = opts;
  });

  const keepDraft = useCallback(() => {
    const form = pending.current ?? sending.current;
    const owner = useSysStore.getState().userInfo?.id;
    if (!form || owner === undefined || version.current === undefined) {
      removeStored(draftKey(examId));
      return;
    }
    writeStored(draftKey(examId), { owner, base: version.current, sent: sending.current, form } satisfies KeptDraft);
  }, [examId]);

  const flush = useCallback(async (): Promise<void> => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
    }
    if (inFlight.current) await inFlight.current;
    const form = pending.current;
    if (!form) return;
    pending.current = null;
    sending.current = form;
    setState({ kind: 'saving' });
    inFlight.current = saveApplication(examId, form, undefined, true, version.current, fitsKeepalive(form)).then(
      (app) => {
        sending.current = null;
        late.current = null;
        version.current = app.version;
        // A change made while this save was in flight is still to be saved: not "saved" yet.
        setState(pending.current ? { kind: 'pending' } : { kind: 'saved', at: new Date() });
        if (!pending.current) removeStored(draftKey(examId));
        // Other pages read the application from the cache: keep it the saved one.
        handlers.current.onSaved?.(app);
      },
      async (err: unknown) => {
        sending.current = null;
        if (isConflict(err) && late.current) {
          const expected = late.current;
          late.current = null;
          const now = await fetchApplication(examId).catch(() => null);
          if (now?.version === expected.version && canonical(now.form) === canonical(expected.form)) {
            // Refused only because of this tab's own save from before the reload, which has just
            // landed: the newer change goes on top of it.
            version.current = now.version;
            pending.current ??= form;
            timer.current = setTimeout(() => void flush(), 0);
            return;
          }
        }
        if (isConflict(err)) {
          // Newer elsewhere: show it, never overwrite it with this tab's older copy.
          pending.current = null;
          removeStored(draftKey(examId));
          setState({ kind: 'conflict' });
          handlers.current.onConflict?.();
          return;
        }
        // Keep what failed unless something newer is already waiting, and try again.
        pending.current ??= form;
        if (document.visibilityState === 'hidden') keepDraft();
        setState({ kind: 'error' });
        timer.current = setTimeout(() => void flush(), RETRY_MS);
      },
    );
    // Hidden, the page may be unloaded before this answers: what it sends is kept meanwhile.
    if (document.visibilityState === 'hidden') keepDraft();
    await inFlight.current;
    inFlight.current = null;
  }, [examId, keepDraft]);

  const schedule = useCallback(
    (form: ApplicationDraft) => {
      pending.current = form;
      // Never "saved" while a change waits; a save in flight still shows as saving.
      if (!inFlight.current) setState({ kind: 'pending' });
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => void flush(), DEBOUNCE_MS);
    },
    [flush],
  );

  /** The page read the application (first load, or the newer one after a conflict): save on top of it. */
  const rebase = useCallback((v: number) => {
    version.current = v;
  }, []);

  /** Puts back what `takeKeptDraft` found, as the page's whole form `form`, to be saved. */
  const restore = useCallback(
    (kept: KeptRestore, form: ApplicationDraft) => {
      late.current = kept.late;
      schedule(form);
    },
    [schedule],
  );

  useEffect(() => {
    const onHide = (event: Event) => {
      if (event.type !== 'pagehide' && document.visibilityState !== 'hidden') return;
      // Sent at once (a keepalive request outlives the page), unless a save is in flight: then
      // what waits behind it is kept in session storage.
      void flush();
      keepDraft();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onHide);
      void flush();
    };
  }, [flush, keepDraft]);

  return { state, schedule, flush, rebase, restore, version };
}

const shown = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/**
 * The fields a stale tab had changed (typed differs from the form it was based on) that the newer
 * form saved elsewhere now holds otherwise: by label, with the value typed (empty: 清空).
 */
export function replacedFields(
  typed: ApplicationDraft,
  base: ApplicationDraft,
  newer: ApplicationDraft,
): { label: string; value: string }[] {
  const t = typed as Record<string, unknown>;
  const b = base as Record<string, unknown>;
  const n = newer as Record<string, unknown>;
  return Object.keys(t)
    .filter((k) => k in FORM_FIELD_LABEL && shown(t[k]) !== shown(b[k]) && shown(t[k]) !== shown(n[k]))
    .map((k) => ({ label: FORM_FIELD_LABEL[k as FormField], value: shown(t[k]) || '（清空）' }));
}
