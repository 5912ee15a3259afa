/**
 * Build-time configuration of the candidate site. VITE_API_BASE points the client at another
 * API origin; VITE_OFFICE_ID / VITE_OFFICE_CODE pin a deployment to one office.
 */
function optionalNumber(raw: string | undefined): number | null {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : null;
}

export const appConfig = {
  apiBase: (import.meta.env.VITE_API_BASE as string | undefined) ?? '',
  officeId: optionalNumber(import.meta.env.VITE_OFFICE_ID as string | undefined),
  officeCode: (import.meta.env.VITE_OFFICE_CODE as string | undefined) || null,
} as const;
