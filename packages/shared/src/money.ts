/** Money as integer fen, shown as yuan: schema-free, so the candidate site's plain pages need no zod. */

/** 1234 → "12.34": the yuan text providers and statements use. */
export function fenToYuan(fen: number): string {
  const sign = fen < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(fen));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "12.34" (or "12.3", "12", "¥12.34", "12.34元") → 1234; null when it is not an amount. Never through floating point. */
export function yuanToFen(text: string): number | null {
  const m = /^\s*[¥￥]?\s*(-)?(\d{1,9})(?:\.(\d{1,2}))?\s*元?\s*$/.exec(text);
  if (!m) return null;
  const fen = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -fen : fen;
}

/** "¥12.34", as screens show it. */
export const formatFen = (fen: number): string => `¥${fenToYuan(fen)}`;
