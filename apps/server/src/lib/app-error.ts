import { ERROR_TEXT, ErrorCode, NOT_FOUND_TEXT, type MissingThing } from '@zhikaoyun/shared';

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

/** The answer to a lookup that found nothing: the catalogue's one text for that thing. */
export function notFound(thing: MissingThing): AppError {
  return new AppError(ErrorCode.NotFound, NOT_FOUND_TEXT[thing]);
}
