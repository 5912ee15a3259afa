import { zonedDay, type MyData } from '@zhikaoyun/shared';
import { officeTimeZone } from '../../../../lib/office-time-zone';

/** The candidate's data as a JSON file the browser saves (no server-side file: nothing lingers). */
export function saveMyDataFile(data: MyData): string {
  const name = `我的个人信息-${zonedDay(data.exportedAt, officeTimeZone())}.json`;
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked a little later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
