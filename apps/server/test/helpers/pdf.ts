import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Every text item of every page, joined: what a reader extracts (Chinese text must survive). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((item) => ('str' in item ? item.str : '')).join('');
  }
  await doc.destroy();
  return text;
}

/** The width and height of a page in PDF points, rounded (A4 is 595 × 842). */
export async function pdfPageSize(bytes: Buffer, page = 1): Promise<[number, number]> {
  const doc = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const [, , w = 0, h = 0] = (await doc.getPage(page)).view;
  await doc.destroy();
  return [Math.round(w), Math.round(h)];
}
