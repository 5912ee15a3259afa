import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TIME_ZONE,
  isTimeZone,
  zonedDateTime,
  zonedDateTimeSeconds,
  zonedDay,
  zonedDays,
  zonedSpan,
  zonedSpanTime,
  zonedToInstant,
} from '../src/clock';

describe('office time', () => {
  it('counts a day on the office wall clock, not in UTC', () => {
    // 17:00 UTC is already the next morning in Beijing, and still the same day in Urumqi (UTC+6).
    expect(zonedDay('2026-11-22T17:00:00.000Z')).toBe('2026-11-23');
    expect(zonedDay('2026-11-22T17:00:00.000Z', 'Asia/Urumqi')).toBe('2026-11-22');
    expect(zonedDay('2026-11-22T15:59:59.999Z', DEFAULT_TIME_ZONE)).toBe('2026-11-22');
    expect(zonedDay('2026-11-22T16:00:00.000Z', DEFAULT_TIME_ZONE)).toBe('2026-11-23');
  });

  it('counts many instants into the same days as one by one, across daylight-saving changes', () => {
    // Every quarter hour of a year, in zones whose changes fall on the hour, on the half hour
    // (Adelaide: 16:30 UTC), by half an hour (Lord Howe), at odd offsets (Kathmandu, Chatham) and
    // at local midnight (Santiago: where the day ends moves within one UTC day).
    for (const zone of [
      'Asia/Shanghai',
      'America/New_York',
      'America/Santiago',
      'Australia/Adelaide',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
    ]) {
      const dayOf = zonedDays(zone);
      const differ: string[] = [];
      for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 15 * 60_000) {
        const instant = new Date(ms).toISOString();
        if (dayOf(instant) !== zonedDay(instant, zone)) differ.push(instant);
      }
      expect(differ, zone).toEqual([]);
    }
    expect(zonedDays()('not a time')).toBe('');
  });

  it('shows times to the minute and to the second in one format', () => {
    expect(zonedDateTime('2026-11-22T06:00:00.000Z')).toBe('2026-11-22 14:00');
    expect(zonedDateTimeSeconds('2026-11-22T06:00:05.000Z')).toBe('2026-11-22 14:00:05');
    expect(zonedDateTime('2026-11-22T16:30:00.000Z')).toBe('2026-11-23 00:30');
    expect(zonedDateTime('not a time')).toBe('');
  });

  it('turns an office wall-clock time into the instant it names', () => {
    expect(zonedToInstant('2026-12-01T17:00')).toBe('2026-12-01T09:00:00.000Z');
    expect(zonedToInstant('2026-12-01 17:00:30', 'Asia/Urumqi')).toBe('2026-12-01T11:00:30.000Z');
    // A zone with daylight saving: the offset of that date is used (EDT in July, EST in December).
    expect(zonedToInstant('2026-07-01T12:00', 'America/New_York')).toBe('2026-07-01T16:00:00.000Z');
    expect(zonedToInstant('2026-12-01T12:00', 'America/New_York')).toBe('2026-12-01T17:00:00.000Z');
    expect(() => zonedToInstant('tomorrow at five')).toThrow(RangeError);
  });

  it('round-trips every minute: instant → wall clock → instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1) / 60_000, max: Date.UTC(2035, 0, 1) / 60_000 }), (minute) => {
        const iso = new Date(minute * 60_000).toISOString();
        for (const zone of ['Asia/Shanghai', 'Asia/Urumqi']) {
          expect(zonedToInstant(zonedDateTime(iso, zone), zone)).toBe(iso);
        }
      }),
    );
  });

  it('writes a sitting on the office clock, with the end’s date only when it is another day', () => {
    // 01:00–03:00 UTC is 09:00–11:00 in Beijing; 15:00–17:00 UTC runs over Beijing's midnight.
    expect(zonedSpan('2027-03-01T01:00:00.000Z', '2027-03-01T03:00:00.000Z')).toBe('2027-03-01 09:00 - 11:00');
    expect(zonedSpan('2027-03-01T15:00:00.000Z', '2027-03-01T17:00:00.000Z')).toBe('2027-03-01 23:00 - 2027-03-02 01:00');
    expect(zonedSpan('2027-03-01T15:00:00.000Z', '2027-03-01T17:00:00.000Z', 'Asia/Urumqi')).toBe('2027-03-01 21:00 - 23:00');
    expect(zonedSpanTime('2027-03-01T01:00:00.000Z', '2027-03-01T03:00:00.000Z')).toBe('09:00 - 11:00');
    expect(zonedSpanTime('2027-03-01T15:00:00.000Z', '2027-03-01T17:00:00.000Z')).toBe('23:00 - 2027-03-02 01:00');
  });

  it('knows which zone names are real', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
