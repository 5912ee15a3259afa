import { DEFAULT_TIME_ZONE, zonedDateTime } from '@zhikaoyun/shared';

// The office's wall clock: every time the site and the console show is on it, whatever zone the
// browser's machine is set to. The shell sets it once it knows the office.
let displayTimeZone = DEFAULT_TIME_ZONE;

export function setDisplayTimeZone(timeZone: string | undefined): void {
  displayTimeZone = timeZone || DEFAULT_TIME_ZONE;
}

/** The office's time zone the pages show (and the console's date pickers take) times in. */
export function officeTimeZone(): string {
  return displayTimeZone;
}

/** 2026-11-22T06:00:00.000Z → 2026-11-22 14:00 (the office's time, as candidates and staff read it). */
export function formatDateTime(iso: string): string {
  return zonedDateTime(iso, displayTimeZone);
}

export function formatDate(iso: string): string {
  return formatDateTime(iso).slice(0, 10);
}
