import { ErrorCode, sheetImportFieldsSchema } from '@zhikaoyun/shared';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
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
export async function readUploadedFile(
  request: FastifyRequest,
  texts: UploadTexts,
): Promise<{ name: string; data: Buffer; /** The plain fields sent before the file. */ fields: Record<string, string> }> {
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
  const fields: Record<string, string> = {};
  for (const [name, part] of Object.entries(file.fields))
    if (part && !Array.isArray(part) && part.type === 'field' && typeof part.value === 'string') fields[name] = part.value;
  return { name: file.filename, data, fields };
}

/** The query string an Excel import also takes its fields from (scripts send them there). */
export const sheetImportQuery = { examId: z.string().optional(), dryRun: z.string().optional() };

/**
 * An Excel import's upload: the sheet (named `noun` in the refusals, at most `maxBytes`), and
 * examId and dryRun from the form fields sent before the file, or from the query string.
 */
export async function readSheetUpload(
  request: FastifyRequest,
  noun: string,
  maxBytes: number,
): Promise<{ data: Buffer; examId: number; dryRun: boolean }> {
  const { data, fields } = await readUploadedFile(request, {
    code: ErrorCode.Validation,
    missing: `请选择要导入的${noun}`,
    tooLarge: `${noun}不能超过 ${maxBytes / 1024 / 1024} MB`,
    empty: `${noun}文件是空的，请重新选择`,
  });
  const query = request.query as { examId?: string; dryRun?: string };
  const parsed = sheetImportFieldsSchema.safeParse({ examId: fields.examId ?? query.examId, dryRun: fields.dryRun ?? query.dryRun });
  if (!parsed.success) throw new AppError(ErrorCode.Validation, parsed.error.issues[0]?.message ?? '请选择考试');
  return { data, ...parsed.data };
}
