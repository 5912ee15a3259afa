/** A workbook download's Content-Disposition: an ASCII name for old browsers, the Chinese one for the rest. */
export function xlsxAttachment(asciiName: string, chineseName: string): string {
  return `attachment; filename="${asciiName}.xlsx"; filename*=UTF-8''${encodeURIComponent(chineseName)}.xlsx`;
}

/** The content type of an .xlsx download. */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
