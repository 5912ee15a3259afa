import { ERROR_TEXT, ErrorCode, HTTP_STATUS_TEXT, fail, issueText } from '@zhikaoyun/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

/**
 * Every failure leaves as an envelope. Business and validation failures answer 200 with
 * success:false; only transport faults keep their HTTP status. No stack trace ever leaves.
 */

interface ValidationIssue {
  message?: string;
  instancePath?: string;
}

/** '/subjects/1/fullMarks' → ['subjects', 1, 'fullMarks'], as the zod issue's path was. */
const pathOf = (instancePath: string | undefined): (string | number)[] =>
  (instancePath ?? '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));

/**
 * The first issue's sentence (zod-locale.ts names the field when the rule has no message of its
 * own); one inside a list says which item (「科目 2：满分应大于 0」).
 */
function validationMessage(err: FastifyError): string {
  const first = (err.validation as ValidationIssue[] | undefined)?.[0];
  const text = first?.message?.trim();
  return text ? issueText(pathOf(first?.instancePath), text) : ERROR_TEXT[ErrorCode.Validation];
}

const TRANSPORT_TEXT: Readonly<Record<number, string>> = {
  400: '请求格式有误，请刷新页面后重试',
  404: '请求地址出错',
  405: '请求方式不被支持',
  406: '请求格式有误，请刷新页面后重试',
  413: '提交的内容过大，请压缩后重试',
  415: '请求格式有误，请刷新页面后重试',
  429: ERROR_TEXT[ErrorCode.TooManyRequests],
  503: '系统维护或繁忙，请稍后再试',
};

function handleError(this: FastifyInstance, err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    return reply.code(err.httpStatus).send(fail(err.errorCode, err.message));
  }
  if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
    return reply.code(200).send(fail(ErrorCode.Validation, validationMessage(err)));
  }
  // PostgreSQL's integer columns are 32-bit: an id the schemas let through (up to 2^53) but the
  // column cannot hold matches no row (22003); a NUL byte cannot be stored in text (22021). Found
  // by the fuzzer; answered as a bad value, not a 500.
  const pgCode = (err as { code?: unknown }).code;
  if (pgCode === '22003' || pgCode === '22021') {
    return reply.code(200).send(fail(ErrorCode.Validation, ERROR_TEXT[ErrorCode.Validation]));
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const msg = TRANSPORT_TEXT[status] ?? HTTP_STATUS_TEXT[status] ?? ERROR_TEXT[ErrorCode.Validation];
    return reply.code(status).send(fail(status, msg));
  }
  request.log.error({ err: { type: err.name, code: err.code, message: err.message, stack: err.stack } }, 'request failed');
  const code = status >= 500 && status < 600 ? status : 500;
  return reply.code(code).send(fail(ErrorCode.Internal, ERROR_TEXT[ErrorCode.Internal]));
}

export default fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(handleError);
    // API answers are personal unless a route says otherwise: no cache may keep them.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
      return payload;
    });
  },
  { name: 'envelope' },
);
