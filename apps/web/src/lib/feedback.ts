import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Lets code outside React (the HTTP client) show toasts through the App's themed message
 * instance; until the App is mounted the static one stands in.
 */
let instance: MessageInstance | null = null;

let last: { text: string; at: number } | null = null;

export function bindMessage(api: MessageInstance | null): void {
  instance = api;
  last = null;
}

/** Shows an error toast; the same text again within a second (several calls failing at once) shows once. */
export function toastError(text: string): void {
  const now = Date.now();
  if (last && last.text === text && now - last.at < 1000) return;
  last = { text, at: now };
  void (instance ?? staticMessage).error(text);
}
