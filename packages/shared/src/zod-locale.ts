import { z } from 'zod';

/**
 * Zod's own messages in Chinese, for the rules that carry no message of their own. Called once
 * by each entry point (server, web), so that importing the schemas stays free of side effects.
 */
export function setChineseZodMessages(): void {
  z.config(z.locales.zhCN());
}
