// Its own module so that code which only tells failures apart (the query client's retry rule)
// does not load the HTTP client itself.

/** A rejected call: the text shown (or that would have been shown) and what the server said. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly errorCode?: number | string,
    /** A shed call's Retry-After (seconds): the server is busy, not broken (lib/waiting-room.ts). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}
