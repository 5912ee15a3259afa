import { appConfig } from '../lib/app-config';
import { useSysStore } from '../lib/store';
import { loadSystemSetting } from '../lib/api/system';
import { officeCodeFromUrl } from './guard';

/**
 * Saves the office named by the app config or by the URL's `code` (in the hash or the query); a
 * new office reloads the settings. Run for the first URL before the first settings load, and on
 * every navigation after it.
 */
export function rememberOffice(location: { search: string; hash: string }): void {
  const store = useSysStore.getState();
  if (appConfig.officeId !== null || appConfig.officeCode) {
    if (store.officeId === null && store.officeCode === null)
      store.setOffice({ officeId: appConfig.officeId, officeCode: appConfig.officeCode });
    return;
  }
  const code = officeCodeFromUrl(location.hash, location.search);
  if (code && code !== store.officeCode) {
    store.setOffice({ officeId: null, officeCode: code });
    void loadSystemSetting();
  }
}
