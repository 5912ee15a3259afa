import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * Lets code outside React (the HTTP client) show toasts through the App's themed message
 * instance; until the App is mounted the static one stands in.
 */
let instance: MessageInstance | null = null;

export function bindMessage(api: MessageInstance | null): void {
  instance = api;
}

export function toastError(text: string): void {
  void (instance ?? staticMessage).error(text);
}
