/**
 * A download's Content-Disposition: an ASCII name for old browsers, the Chinese one (RFC 5987) for
 * the rest. `ext` without its dot.
 */
export function attachment(asciiName: string, chineseName: string, ext: string): string {
  return `attachment; filename="${asciiName}.${ext}"; filename*=UTF-8''${encodeURIComponent(chineseName)}.${ext}`;
}

/** A workbook download's Content-Disposition. */
export function xlsxAttachment(asciiName: string, chineseName: string): string {
  return attachment(asciiName, chineseName, 'xlsx');
}

/** The content type of an .xlsx download. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
