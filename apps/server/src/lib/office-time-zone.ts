import { DEFAULT_TIME_ZONE, officeSettingsSchema } from '@zhikaoyun/shared';
import { parseJsonColumn } from './json';

const officeClockSchema = officeSettingsSchema.pick({ timeZone: true });

/** The office's time zone from its settings column (Beijing time when it names none). */
export function officeTimeZoneOf(officeSettings: string): string {
  return parseJsonColumn(officeClockSchema, officeSettings, { timeZone: DEFAULT_TIME_ZONE }).timeZone;
}
