import { ErrorCode, PHOTO_MAX_PIXELS, PHOTO_MIN_HEIGHT, PHOTO_MIN_WIDTH, PHOTO_RULE_TEXT } from '@zhikaoyun/shared';
import sharp from 'sharp';
import { AppError } from '../../../lib/app-error';
import { backgroundOf, photoProblem, WORK_WIDTH, type Background, type Pixels } from './photo-rules';

// libvips keeps the results of recent operations (up to 50 MB) for a program that edits one image
// again and again; every upload here is a new image, so the cache only holds memory.
sharp.cache(false);

/** Stored photos are at most this size: enough for an admission ticket and a review screen. */
const MAX_WIDTH = 600;
const MAX_HEIGHT = 800;

export interface ProcessedPhoto {
  mime: 'image/jpeg';
  width: number;
  height: number;
  data: Buffer;
}

function refuse(msg: string): never {
  throw new AppError(ErrorCode.PhotoInvalid, msg);
}

/**
 * Checks an upload by its content (not its name or declared type), then re-encodes it as a
 * JPEG: EXIF orientation applied, every metadata block (location, camera, thumbnails) dropped.
 */
export async function processPhoto(input: Buffer): Promise<ProcessedPhoto> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS }).metadata();
  } catch {
    refuse('无法识别该文件，请上传 JPG 或 PNG 格式的照片');
  }
  if (meta.format !== 'jpeg' && meta.format !== 'png') refuse('只支持 JPG 或 PNG 格式的照片');
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width * height > PHOTO_MAX_PIXELS) refuse('照片像素过大，请缩小后重新上传');
  if (width < PHOTO_MIN_WIDTH || height < PHOTO_MIN_HEIGHT) {
    refuse(`照片太小，至少需要 ${PHOTO_MIN_WIDTH}×${PHOTO_MIN_HEIGHT} 像素`);
  }
  let pixels: Pixels;
  try {
    pixels = await workingPixels(sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS }).rotate());
  } catch {
    refuse('照片文件已损坏，请重新拍摄或选择其他照片');
  }
  // Issue 33: what a reviewer would reject, said at once (photo-rules.ts).
  const problem = photoProblem(pixels, { width, height });
  if (problem) refuse(PHOTO_RULE_TEXT[problem]);
  try {
    const { data, info } = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS })
      .rotate()
      .resize({ width: MAX_WIDTH, height: MAX_HEIGHT, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85 })
      .toBuffer({ resolveWithObject: true });
    return { mime: 'image/jpeg', width: info.width, height: info.height, data };
  } catch {
    refuse('照片文件已损坏，请重新拍摄或选择其他照片');
  }
}

/** The photo at the rules' working width, RGB on white (a transparent PNG is judged as stored). */
async function workingPixels(image: sharp.Sharp): Promise<Pixels> {
  const { data, info } = await image
    .flatten({ background: '#ffffff' })
    .resize({ width: WORK_WIDTH })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/** A stored photo's background (the exam's required colour is checked at submit). */
export async function storedBackground(jpeg: Buffer): Promise<Background> {
  return backgroundOf(await workingPixels(sharp(jpeg)));
}
