import { ErrorCode } from '@zhikaoyun/shared';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { AppError } from '../../../lib/app-error';

/**
 * A fee waiver's proof, checked by what it is rather than by its first bytes (security review 3,
 * N4: `\xff\xd8\xff<html>…` passed as a JPEG). An image is decoded and drawn again as the ID photo
 * is (accounts/photo.ts): only its pixels are kept, every metadata block (location, camera) and
 * whatever rode along after the image is gone. A PDF must parse with pdf-lib and is stored as
 * pdf-lib writes it again (bytes after the document, or a second file glued on, do not survive).
 * Anything else is refused.
 */
export interface Proof {
  mime: 'image/jpeg' | 'image/png' | 'application/pdf';
  data: Buffer;
}

/** A scan or a phone photo of a certificate: large enough to read, no larger. */
const MAX_PIXELS = 40_000_000;
const MAX_SIDE = 2400;

const KIND_TEXT = '证明材料须为 JPG、PNG 图片或 PDF 文件';
const BROKEN_TEXT = '无法读取该证明材料，请重新拍照或扫描后上传 JPG、PNG 图片或 PDF 文件';
const refuse = (msg: string): never => {
  throw new AppError(ErrorCode.Validation, msg);
};

export async function readProof(input: Buffer): Promise<Proof> {
  if (input.subarray(0, 5).toString('latin1') === '%PDF-') return readPdf(input);
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata()).format;
  } catch {
    return refuse(KIND_TEXT);
  }
  // sharp reads more (SVG, GIF, WebP, TIFF…): only the two kinds the page asks for are taken.
  if (format !== 'jpeg' && format !== 'png') return refuse(KIND_TEXT);
  try {
    const image = sharp(input, { limitInputPixels: MAX_PIXELS })
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    // A PNG stays one (a screenshot's text stays sharp); neither keeps any metadata.
    const data =
      format === 'png' ? await image.png().toBuffer() : await image.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer();
    return { mime: format === 'png' ? 'image/png' : 'image/jpeg', data };
  } catch {
    return refuse(BROKEN_TEXT);
  }
}

async function readPdf(input: Buffer): Promise<Proof> {
  try {
    // An encrypted document throws here: staff could not open it either.
    const doc = await PDFDocument.load(input, { updateMetadata: false });
    if (doc.getPageCount() === 0) return refuse(BROKEN_TEXT);
    return { mime: 'application/pdf', data: Buffer.from(await doc.save({ updateFieldAppearances: false })) };
  } catch (err) {
    if (err instanceof AppError) throw err;
    return refuse(BROKEN_TEXT);
  }
}
