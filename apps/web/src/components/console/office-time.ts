import { zonedDateTimeSeconds, zonedToInstant } from '@zhikaoyun/shared';
import dayjs, { type Dayjs } from 'dayjs';
import { officeTimeZone } from '../../lib/office-time-zone';

/*
 * The console's date pickers read and write the office's wall clock (Beijing time by default),
 * whatever zone the staff member's computer is set to: a window typed as 09:00 opens at 09:00 on
 * the office's clock, as the candidate site shows it. antd's picker works on the browser's clock
 * (its "now", typed text and calendar cells are plain local dayjs values), so it is handed values
 * that carry the office's fields on that clock and read back field by field; every value it
 * holds is then of one kind, and its own comparisons (start before end) stay right. (The one
 * limit: an office time that falls in the computer's own daylight-saving gap reads an hour later.)
 */

/** An instant (ISO UTC text) as a picker value showing the office's date and time. */
export function toOfficePickerValue(instant: string | Date): Dayjs {
  return dayjs(zonedDateTimeSeconds(instant, officeTimeZone()).replace(' ', 'T'));
}

/** A picker value, read as the office's wall clock, as the instant (ISO UTC text) it means. */
export function fromOfficePickerValue(value: Dayjs): string {
  return zonedToInstant(value.format('YYYY-MM-DDTHH:mm:ss'), officeTimeZone());
}

/** The office's current date and time as a picker value. */
export const officeNowPickerValue = (): Dayjs => toOfficePickerValue(new Date());
