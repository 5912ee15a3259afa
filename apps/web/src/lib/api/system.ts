import type { Captcha, MenuItem, SystemSetting, TreatyDesc } from '@zhikaoyun/shared';
import { getData, getRaw } from '../api-client';
import { setDisplayTimeZone } from '../office-time-zone';
import { writeStored } from '../storage';
import { useSysStore } from '../store';

// The office's settings, menu, agreement and captchas: the entry loads this module (the start-up
// settings), so it stays free of TanStack Query.

export const fetchSystemSetting = (silent = false) => getData<SystemSetting>('/api/getWSystem', { silent });
export const fetchMenu = (silent = false) => getData<MenuItem[]>('/api/getMenu', { silent });
export const fetchTreatyDesc = () => getData<TreatyDesc>('/api/getTreatyDesc');
export const fetchCaptcha = () => getData<Captcha>('/api/getCode');
/** The captcha spoken (a WAV), or the refusal's envelope as a JSON blob: the caller tells them apart by type. */
export const fetchCaptchaAudio = (path: string, captchaId: string) =>
  getRaw<Blob>(path, { params: { captchaId }, responseType: 'blob', silent: true });

/**
 * Start-up load: settings once, into session storage and the store; a failure shows
 * nothing and the site keeps its default name. The menu comes along the same way.
 */
let inflight: { office: string; promise: Promise<void> } | null = null;

export function loadSystemSetting(): Promise<void> {
  const { officeId, officeCode } = useSysStore.getState();
  const office = `${officeId ?? ''}/${officeCode ?? ''}`;
  // The router's guard and the entry may both ask at start-up: one request serves both.
  if (inflight?.office === office) return inflight.promise;
  const promise = doLoad().finally(() => {
    if (inflight?.promise === promise) inflight = null;
  });
  inflight = { office, promise };
  return promise;
}

async function doLoad(): Promise<void> {
  const store = useSysStore.getState();
  await Promise.allSettled([
    fetchSystemSetting(true).then((setting) => {
      writeStored('sysSetting', setting);
      store.setSysSetting(setting);
      // The office the server answered for is the one later calls must name.
      store.setOffice({ officeId: setting.officeId, officeCode: setting.officeCode });
      setDisplayTimeZone(setting.timeZone);
    }),
    fetchMenu(true).then((menu) => store.setSysMenu(menu)),
  ]);
}
