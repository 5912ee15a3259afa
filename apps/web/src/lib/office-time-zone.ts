import { DEFAULT_TIME_ZONE } from '@zhikaoyun/shared';

// The office's wall clock: every time the site and the console show is on it, whatever zone the
// browser's machine is set to. The shell sets it once it knows the office (and the staff session
// once it knows the staff member's office); components/format.ts shows times in it.
let displayTimeZone = DEFAULT_TIME_ZONE;

export function setDisplayTimeZone(timeZone: string | undefined): void {
  displayTimeZone = timeZone || DEFAULT_TIME_ZONE;
}

/** The office's time zone the pages show (and the console's date pickers take) times in. */
export function officeTimeZone(): string {
  return displayTimeZone;
}
