import sharp from 'sharp';
import { idPhotoSvg } from '../../src/seed/id-photo';

/**
 * How the photo fixtures in test/fixtures/photos are drawn (issue 33): the shared good ID photo
 * in several sizes and backgrounds, and one photo per rule that fails it. Drawn deterministically
 * from SVG; `WRITE_PHOTO_FIXTURES=1 npx vitest run apps/server/test/photo-rules.test.ts` writes
 * the files again.
 */
const jpeg = (svg: string, quality = 90) => sharp(Buffer.from(svg)).jpeg({ quality }).toBuffer();

/** A cluttered room behind the person: shelves, a window, a door. */
function busyScene(w: number, h: number): string {
  const blocks = [
    ['#7a5230', 0, 0, 90, 180],
    ['#c9d7e8', 90, 0, 120, 110],
    ['#3f6e3a', 210, 0, 85, 150],
    ['#d9a441', 20, 180, 60, 70],
    ['#8b2f3c', 230, 150, 65, 120],
    ['#f4efe6', 120, 110, 60, 60],
  ] as const;
  const rects = blocks.map(([fill, x, y, bw, bh]) => `<rect x="${x}" y="${y}" width="${bw}" height="${bh}" fill="${fill}"/>`).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 295 413" preserveAspectRatio="none"><rect width="295" height="413" fill="#b8a48a"/>${rects}</svg>`;
}

export const GOOD_PHOTOS: Record<string, () => Promise<Buffer>> = {
  'good-light-blue-295x413.jpg': () => jpeg(idPhotoSvg()),
  'good-white-390x567.jpg': () => jpeg(idPhotoSvg({ width: 390, height: 567, background: '#ffffff' })),
  'good-gray-330x440.jpg': () => jpeg(idPhotoSvg({ width: 330, height: 440, background: '#e4e6e9' })),
  'good-blue-413x579.jpg': () => jpeg(idPhotoSvg({ width: 413, height: 579, background: '#438edb' })),
  'good-red-295x413.jpg': () => jpeg(idPhotoSvg({ background: '#d9001b' })),
  'good-white-600x800.png': () =>
    sharp(Buffer.from(idPhotoSvg({ width: 600, height: 800, background: '#ffffff' })))
      .png()
      .toBuffer(),
};

/** Each fails the rule its name says (and, drawn from the good photo, only that one first). */
export const BAD_PHOTOS: Record<string, () => Promise<Buffer>> = {
  'busy-background.jpg': async () =>
    sharp(Buffer.from(busyScene(295, 413)))
      .composite([{ input: Buffer.from(idPhotoSvg({ background: 'none' })) }])
      .jpeg({ quality: 90 })
      .toBuffer(),
  'blurred.jpg': async () =>
    sharp(await jpeg(idPhotoSvg()))
      .blur(4)
      .jpeg({ quality: 90 })
      .toBuffer(),
  'dark.jpg': async () =>
    sharp(await jpeg(idPhotoSvg()))
      .linear(0.22, 0)
      .jpeg({ quality: 90 })
      .toBuffer(),
  'bright.jpg': async () =>
    sharp(await jpeg(idPhotoSvg()))
      .linear(0.3, 185)
      .jpeg({ quality: 90 })
      .toBuffer(),
  'landscape.jpg': () => jpeg(idPhotoSvg({ width: 560, height: 400 })),
};
