import { ERROR_TEXT, type ErrorCode } from '@zhikaoyun/shared';

/** A business or validation failure: answered as HTTP 200 with success:false (a business answer is not a transport failure, so proxies and monitors see 200). */
export class AppError extends Error {
  readonly errorCode: ErrorCode;
  /** Set only for transport-level answers (404 route, 413, 429); business failures stay 200. */
  readonly httpStatus: number;

  constructor(errorCode: ErrorCode, msg?: string, httpStatus = 200) {
    super(msg ?? ERROR_TEXT[errorCode]);
    this.name = 'AppError';
    this.errorCode = errorCode;
    this.httpStatus = httpStatus;
  }
}
