import { zonedDateTime, zonedDay } from '@zhikaoyun/shared';
import { officeTimeZone } from '../lib/office-time-zone';

/** 2026-11-22T06:00:00.000Z → 2026-11-22 14:00 (the office's time, as candidates and staff read it). */
export function formatDateTime(iso: string): string {
  return zonedDateTime(iso, officeTimeZone());
}

export function formatDate(iso: string): string {
  return zonedDay(iso, officeTimeZone());
}
