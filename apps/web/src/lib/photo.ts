import { PHOTO_SPEC } from '@zhikaoyun/shared';

/**
 * The size the browser sends: the office's ratio at 1.5× its pixels, under the server's 600×800
 * (so the server keeps it as sent) and a small fraction of its 5 MB limit.
 */
export const PHOTO_OUTPUT = { width: Math.round(PHOTO_SPEC.width * 1.5), height: Math.round(PHOTO_SPEC.height * 1.5) } as const;

/** HEIC/HEIF (iPhone photos): by declared type, by name, or by the file's own `ftyp` brand. */
export async function isHeic(file: File): Promise<boolean> {
  if (/^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(file.name)) return true;
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const brand = String.fromCharCode(...head.slice(8, 12));
  return String.fromCharCode(...head.slice(4, 8)) === 'ftyp' && ['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand);
}

export class UnreadablePhoto extends Error {}

/**
 * A picture the candidate chose, decoded to pixels the right way up (EXIF orientation applied).
 * What the browser reads itself (JPEG, PNG, WebP; HEIC on Safari) is read directly; a HEIC photo
 * elsewhere is decoded by libheif, loaded only then.
 */
export async function decodePhoto(file: File): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    if (!(await isHeic(file))) throw new UnreadablePhoto('无法识别该文件，请选择 JPG、PNG 或 HEIC 格式的照片');
  }
  try {
    const { heicTo } = await import('heic-to/csp');
    return await heicTo({ blob: file, type: 'bitmap' });
  } catch {
    throw new UnreadablePhoto('无法读取该 HEIC 照片，请在手机相册中导出为 JPG 后重新选择');
  }
}

/** Where the picture sits in the crop frame: its scale (frame pixels per picture pixel) and offset. */
export interface CropView {
  scale: number;
  x: number;
  y: number;
}

/** The view that fills a frame with the picture (no empty edge), centred. */
export function coverView(image: { width: number; height: number }, frame: { width: number; height: number }): CropView {
  const scale = Math.max(frame.width / image.width, frame.height / image.height);
  return { scale, x: (frame.width - image.width * scale) / 2, y: (frame.height - image.height * scale) / 2 };
}

/** Keeps the picture covering the frame: no empty edge may show after a drag or zoom. */
export function clampView(view: CropView, image: { width: number; height: number }, frame: { width: number; height: number }): CropView {
  const min = coverView(image, frame).scale;
  const scale = Math.max(view.scale, min);
  const w = image.width * scale;
  const h = image.height * scale;
  return {
    scale,
    x: Math.min(0, Math.max(frame.width - w, view.x)),
    y: Math.min(0, Math.max(frame.height - h, view.y)),
  };
}

/** The part of the picture the frame shows, as a JPEG of PHOTO_OUTPUT pixels (no metadata). */
export async function cropToJpeg(image: ImageBitmap, view: CropView, frame: { width: number; height: number }): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = PHOTO_OUTPUT.width;
  canvas.height = PHOTO_OUTPUT.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new UnreadablePhoto('浏览器无法处理照片，请更换浏览器后重试');
  const k = PHOTO_OUTPUT.width / frame.width;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, view.x * k, view.y * k, image.width * view.scale * k, image.height * view.scale * k);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new UnreadablePhoto('照片处理失败，请重试'))), 'image/jpeg', 0.9),
  );
}
