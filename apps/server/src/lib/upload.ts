import type { ErrorCode } from '@zhikaoyun/shared';
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';

export interface UploadTexts {
  /** The error code every refusal carries. */
  code: ErrorCode;
  /** No multipart body, or no `file` field. */
  missing: string;
  /** Over the route's multipart `fileSize` limit. */
  tooLarge: string;
  /** A file of zero bytes. */
  empty: string;
}

/**
 * The one file of a multipart upload (field `file`), read into memory within the limit the route
 * registered @fastify/multipart with; each way it can be wrong is a clear refusal, never a 500.
 */
export async function readUploadedFile(request: FastifyRequest, texts: UploadTexts): Promise<{ name: string; data: Buffer }> {
  if (!request.isMultipart()) throw new AppError(texts.code, texts.missing);
  const file = await request.file();
  if (!file || file.fieldname !== 'file') throw new AppError(texts.code, texts.missing);
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch {
    throw new AppError(texts.code, texts.tooLarge);
  }
  if (data.length === 0) throw new AppError(texts.code, texts.empty);
  return { name: file.filename, data };
}
