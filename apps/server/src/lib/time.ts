/** Now as ISO-8601 UTC text, the one time format the database keeps. */
export function nowIso(): string {
  return new Date().toISOString();
}

export function isoIn(ms: number, from: Date = new Date()): string {
  return new Date(from.getTime() + ms).toISOString();
}
