import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument, rgb, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';

export const A4: [number, number] = [595.28, 841.89];

const require = createRequire(import.meta.url);

/**
 * The fonts (Noto Sans SC, about 31,000 glyphs, so rare characters of names print too) are read
 * and parsed once per process: pdf-lib parses the font again for every document it embeds it in,
 * which costs more than the rest of the page. Each document still gets its own subset.
 */
let fonts: { regular: fontkit.Font; bold: fontkit.Font; regularBytes: Buffer; boldBytes: Buffer } | undefined;
function loadFonts() {
  if (!fonts) {
    const regularBytes = readFileSync(require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'));
    const boldBytes = readFileSync(require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'));
    fonts = { regular: fontkit.create(regularBytes), bold: fontkit.create(boldBytes), regularBytes, boldBytes };
    useLongGlyphOffsets(fonts.regular);
  }
  return fonts;
}

/**
 * fontkit writes a subset's glyph offsets in the short format (halved) whenever they are small,
 * but these fonts' glyphs have odd lengths, so halving cuts glyphs off and they print blank.
 * The long format keeps every offset exact; it costs two bytes a glyph.
 */
function useLongGlyphOffsets(font: fontkit.Font) {
  type Subset = { loca?: { version?: number }; _addGlyph: (this: Subset, gid: number) => number };
  const proto = Object.getPrototypeOf(font.createSubset()) as Subset & { __longOffsets?: true };
  if (proto.__longOffsets) return;
  const addGlyph = proto._addGlyph;
  proto._addGlyph = function (this: Subset, gid: number) {
    if (this.loca) this.loca.version = 1;
    return addGlyph.call(this, gid);
  };
  proto.__longOffsets = true;
}

/** The look both documents share. */
export const MARGIN = 48;
export const INK = rgb(0.1, 0.1, 0.1);
export const MUTED = rgb(0.4, 0.4, 0.4);
export const LINE = rgb(0.55, 0.55, 0.55);
export const SHADE = rgb(0.94, 0.95, 0.97);

/** Character widths at size 1 per font: measuring through the font's shaping for every character costs. */
const widths = new WeakMap<PDFFont, Map<string, number>>();
function charWidth(font: PDFFont, ch: string): number {
  let known = widths.get(font);
  if (!known) widths.set(font, (known = new Map<string, number>()));
  let w = known.get(ch);
  if (w === undefined) known.set(ch, (w = font.widthOfTextAtSize(ch, 1)));
  return w;
}

/** Splits text into lines no wider than `width` (character by character: Chinese has no spaces). */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let used = 0;
    for (const ch of paragraph) {
      const w = charWidth(font, ch) * size;
      if (line !== '' && used + w > width) {
        lines.push(line);
        line = ch;
        used = w;
      } else {
        line += ch;
        used += w;
      }
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Drawing text on an A4 page between the margins: at a point, centred across the text width, or
 * cut with an ellipsis to fit a width. `font` defaults to the document's regular face.
 */
export function textTools(regular: PDFFont) {
  const left = MARGIN;
  const width = A4[0] - 2 * MARGIN;
  const text = (p: PDFPage, s: string, x: number, y: number, size: number, font: PDFFont = regular, color = INK) =>
    p.drawText(s, { x, y, size, font, color });
  const centered = (p: PDFPage, s: string, y: number, size: number, font: PDFFont, color = INK) =>
    text(p, s, left + (width - font.widthOfTextAtSize(s, size)) / 2, y, size, font, color);
  const fit = (s: string, font: PDFFont, size: number, w: number) => {
    let shown = s;
    while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > w) shown = shown.slice(0, -1);
    return shown === s ? s : `${shown.slice(0, -1)}…`;
  };
  return { text, centered, fit };
}

/**
 * A new PDF with Noto Sans SC Regular and Bold embedded as subsets (only the glyphs it prints):
 * every Chinese document the product renders (tickets, room sheets) starts here.
 */
export async function createCjkDocument(title: string, author: string): Promise<{ doc: PDFDocument; regular: PDFFont; bold: PDFFont }> {
  const f = loadFonts();
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setAuthor(author);
  doc.setCreator('zhikaoyun');
  doc.setProducer('zhikaoyun');
  // Hands pdf-lib the already parsed font for the bytes it is given.
  doc.registerFontkit({ create: (bytes: Uint8Array) => (bytes === f.boldBytes ? f.bold : f.regular) });
  const regular = await doc.embedFont(f.regularBytes, { subset: true });
  const bold = await doc.embedFont(f.boldBytes, { subset: true });
  return { doc, regular, bold };
}

/** An ID photo for the document; an unreadable one gives undefined (the page prints the empty frame). */
export async function embedPhoto(doc: PDFDocument, photo: { mime: string; data: Buffer }): Promise<PDFImage | undefined> {
  // A copy: pdf-lib reads the image through its whole ArrayBuffer, and a driver's Buffer may be
  // a slice of a larger pool.
  const data = new Uint8Array(photo.data);
  return (photo.mime === 'image/png' ? doc.embedPng(data) : doc.embedJpg(data)).catch(() => undefined);
}
