import { DEFAULT_SITE_NAME } from '@zhikaoyun/shared';
import { useSysStore } from '../lib/store';

/** The office's webname, or 智考云系统 until settings arrive. */
export function useSiteName(): string {
  return useSysStore((s) => s.sysSetting?.webname) || DEFAULT_SITE_NAME;
}
