import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalApi } from 'antd/es/modal/useModal';
import type { NotificationInstance } from 'antd/es/notification/interface';

/** What antd's App gives its children through App.useApp(): themed message, notification, dialogs. */
export interface FeedbackApi {
  message: MessageInstance;
  notification: NotificationInstance;
  modal: ModalApi;
}

/**
 * The holders behind those three (antd's message, notification and modal hooks, a good third of
 * antd's weight on a page) load after the first paint: on the first tap, key or focus, or on the
 * first call. Until then App.useApp() hands out `deferredFeedback`, whose calls wait for them, so a
 * page uses the same API, with the same theme and configuration, whenever it calls.
 */
let bound: FeedbackApi | null = null;
let waiting: ((api: FeedbackApi) => void)[] = [];
let loadRequested = false;
let requestLoad: () => void = () => {
  loadRequested = true;
};

/** The holders hand over their instances once mounted (null when they go away). */
export function bindFeedback(api: FeedbackApi | null): void {
  bound = api;
  last = null;
  if (!api) return;
  const ready = waiting;
  waiting = [];
  ready.forEach((resume) => resume(api));
}

/** The app root says how to load the holders; a call made before that loads them as soon as it can. */
export function onFeedbackLoadRequest(load: () => void): void {
  requestLoad = load;
  if (loadRequested) load();
}

function whenBound(): Promise<FeedbackApi> {
  if (bound) return Promise.resolve(bound);
  requestLoad();
  return new Promise((resolve) => waiting.push(resolve));
}

type Methods = Record<string, ((...args: unknown[]) => unknown) | undefined>;

function deferred<K extends keyof FeedbackApi>(kind: K): FeedbackApi[K] {
  const methods = (api: FeedbackApi) => api[kind] as unknown as Methods;
  const target: Methods = {};
  return new Proxy(target, {
    get: (_target, method) => {
      // Never a thenable: awaiting the API object itself must not call through.
      if (typeof method !== 'string' || method === 'then') return undefined;
      return (...args: unknown[]) =>
        bound ? methods(bound)[method]?.(...args) : whenBound().then((api) => methods(api)[method]?.(...args));
    },
  }) as unknown as FeedbackApi[K];
}

export const deferredFeedback: FeedbackApi = {
  message: deferred('message'),
  notification: deferred('notification'),
  modal: deferred('modal'),
};

let last: { text: string; at: number } | null = null;
let messageInstance: MessageInstance | null = null;

/** A message instance the toasts below use instead of the app's (a test's recorder). */
export function bindMessage(api: MessageInstance | null): void {
  messageInstance = api;
  last = null;
}

/** Shows an error toast; the same text again within a second (several calls failing at once) shows once. */
export function toastError(text: string): void {
  const now = Date.now();
  if (last && last.text === text && now - last.at < 1000) return;
  last = { text, at: now };
  void (messageInstance ?? deferredFeedback.message).error(text);
}
