/**
 * Office time. Every instant is kept and compared as ISO-8601 UTC text; an office counts its days,
 * windows and deadlines on its own wall clock. These are the only functions that turn one into the
 * other, for the browser and the server alike (schema-free, so the site's shell can load them).
 */

/** Where offices are unless they say otherwise: recruitment exams here run on Beijing time. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/** The zones the console offers (any IANA name is accepted by the API). */
export const OFFICE_TIME_ZONES: readonly { value: string; label: string }[] = [
  { value: 'Asia/Shanghai', label: '北京时间（Asia/Shanghai，UTC+8）' },
  { value: 'Asia/Urumqi', label: '新疆时间（Asia/Urumqi，UTC+6）' },
  { value: 'Asia/Hong_Kong', label: '香港时间（Asia/Hong_Kong，UTC+8）' },
  { value: 'Asia/Macau', label: '澳门时间（Asia/Macau，UTC+8）' },
];

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for an IANA time zone name this runtime knows (e.g. Asia/Shanghai, Asia/Urumqi). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

function wallClock(instant: string | Date, timeZone: string): WallClock | null {
  const d = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(d.getTime())) return null;
  const parts = formatter(timeZone).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** A wall clock read as if it were UTC, in ms: minus the instant, the zone's offset then. */
function asUtcMs(w: WallClock): number {
  return Date.UTC(Number(w.year), Number(w.month) - 1, Number(w.day), Number(w.hour), Number(w.minute), Number(w.second));
}

/** The office's calendar day of an instant: 2026-11-22T17:00:00Z → 2026-11-23 in Asia/Shanghai. */
export function zonedDay(instant: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const w = wallClock(instant, timeZone);
  return w ? `${w.year}-${w.month}-${w.day}` : '';
}

const DAY_MS = 86_400_000;

/**
 * `zonedDay` for many instants (a statistics page's thousands of quarter hours): one reading of
 * the wall clock per UTC day instead of one per instant (Intl's formatToParts was a quarter of
 * the page's time). A UTC day whose offset differs at its two ends (a daylight-saving change) is
 * read instant by instant.
 */
export function zonedDays(timeZone: string = DEFAULT_TIME_ZONE): (instant: string) => string {
  // UTC day number → the zone's offset all that day (ms), or null when it changes within it.
  const offsets = new Map<number, number | null>();
  const offsetAt = (ms: number): number => asUtcMs(wallClock(new Date(ms), timeZone)!) - ms;
  return (instant) => {
    const ms = Date.parse(instant);
    if (Number.isNaN(ms)) return '';
    const dayNo = Math.floor(ms / DAY_MS);
    let offset = offsets.get(dayNo);
    if (offset === undefined) {
      const first = offsetAt(dayNo * DAY_MS);
      offset = first === offsetAt((dayNo + 1) * DAY_MS - 1000) ? first : null;
      offsets.set(dayNo, offset);
    }
    return offset === null ? zonedDay(instant, timeZone) : new Date(ms + offset).toISOString().slice(0, 10);
  };
}

/** The calendar day `n` days after `day` (yyyy-mm-dd; n may be negative): date arithmetic, no time zone involved. */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

let nowMs: () => number = () => Date.now();

/**
 * Where the rules here that need "today" read the time: the browser's own clock unless the host
 * hands its own. The server hands its business clock, so a test that moves the server's clock
 * moves these rules with it (an ID number born "tomorrow" included).
 */
export function setSharedClock(source: () => number): void {
  nowMs = source;
}

/** Today on the office's wall clock (yyyy-mm-dd), by the shared clock. */
export function officeToday(timeZone: string = DEFAULT_TIME_ZONE): string {
  return zonedDay(new Date(nowMs()), timeZone);
}

/** The office's wall-clock time of an instant, to the minute: 2026-11-22 14:00. */
export function zonedDateTime(instant: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const w = wallClock(instant, timeZone);
  return w ? `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}` : '';
}

/** The same to the second, as spreadsheets and audit logs show it: 2026-11-22 14:00:05. */
export function zonedDateTimeSeconds(instant: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const w = wallClock(instant, timeZone);
  return w ? `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second}` : '';
}

/** A sitting on the office's clock, "2027-03-01 09:00 - 11:00": the end's date only when it differs from the start's. */
export function zonedSpan(startAt: string, endAt: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  return `${zonedDateTime(startAt, timeZone)} - ${zonedEnd(startAt, endAt, timeZone)}`;
}

/** The same without the start's date, "09:00 - 11:00", for a table that has a column of days. */
export function zonedSpanTime(startAt: string, endAt: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  const w = wallClock(startAt, timeZone);
  return w ? `${w.hour}:${w.minute} - ${zonedEnd(startAt, endAt, timeZone)}` : '';
}

function zonedEnd(startAt: string, endAt: string, timeZone: string): string {
  const w = wallClock(endAt, timeZone);
  if (!w) return '';
  return zonedDay(endAt, timeZone) === zonedDay(startAt, timeZone) ? `${w.hour}:${w.minute}` : zonedDateTime(endAt, timeZone);
}

/**
 * The instant at which the office's wall clock shows `local` ("2026-12-01T17:00" or with seconds),
 * as ISO UTC text. Found by the zone's offset at that moment, so daylight-saving zones work too.
 */
export function zonedToInstant(local: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) throw new RangeError(`not a local date-time: ${local}`);
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  // Twice: the first guess's offset may differ from the answer's across a transition.
  let guess = asUtc;
  for (let i = 0; i < 2; i += 1) {
    const w = wallClock(new Date(guess), timeZone);
    if (!w) break;
    guess += asUtc - asUtcMs(w);
  }
  return new Date(guess).toISOString();
}
