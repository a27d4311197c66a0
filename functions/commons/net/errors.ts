/**
 * Typed errors of outbound HTTP (background downloads, webhook deliveries). Each carries a stable `code` that
 * callers may store, log and branch on; the message is for humans and may change.
 */

export type FetchErrorCode =
  | 'address_not_allowed'
  | 'invalid_url'
  | 'too_large'
  | 'timeout'
  | 'http_error'
  | 'network_error'
  | 'too_many_redirects'
  | 'incomplete_body';

export abstract class FetchError extends Error {
  abstract readonly code: FetchErrorCode;
}

/** The URL, a redirect target or a resolved address is one we refuse to connect to (SSRF guard). */
export class AddressNotAllowedError extends FetchError {
  readonly code = 'address_not_allowed';
  override readonly name = 'AddressNotAllowedError';
  constructor(
    /** Host as written in the URL (a name or an IP literal). */
    readonly host: string,
    /** Why: e.g. `metadata`, `link_local`, `private`, `loopback`. */
    readonly reason: string,
    /** The offending address when the refusal came from a resolved or connected address. */
    readonly address?: string,
  ) {
    super(`address not allowed: ${host}${address && address !== host ? ` (${address})` : ''} is ${reason.replace(/_/g, ' ')}`);
  }
}

export class InvalidUrlError extends FetchError {
  readonly code = 'invalid_url';
  override readonly name = 'InvalidUrlError';
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`invalid url: ${reason}`);
  }
}

/** The body (by Content-Length or by the bytes streamed so far) exceeds the caller's limit. */
export class TooLargeError extends FetchError {
  readonly code = 'too_large';
  override readonly name = 'TooLargeError';
  constructor(
    readonly maxBytes: number,
    /** Content-Length when announced, else the bytes received when the limit was crossed. */
    readonly bytes: number,
  ) {
    super(`response larger than ${maxBytes} bytes`);
  }
}

/**
 * The server closed the connection in good order before the body's end: fewer bytes than the Content-Length announced,
 * or a chunked body cut off. Not transient: a server that does it once mostly does it again (a caller's download tries
 * once more at once, fetch-media.ts), and the queue's retries would wait minutes for the same answer.
 */
export class IncompleteBodyError extends FetchError {
  readonly code = 'incomplete_body';
  override readonly name = 'IncompleteBodyError';
  constructor(
    /** Body bytes received before the connection ended. */
    readonly bytes: number,
    /** Content-Length, when announced. */
    readonly announced?: number,
  ) {
    super(`the connection ended after ${bytes}${announced === undefined ? '' : ` of ${announced}`} body bytes`);
  }
}

/** The whole exchange (redirects and body included) took longer than the caller's limit. */
export class FetchTimeoutError extends FetchError {
  readonly code = 'timeout';
  override readonly name = 'FetchTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`no complete response within ${timeoutMs} ms`);
  }
}

/** The final response has a status the caller does not accept (by default anything but 2xx). */
export class HttpStatusError extends FetchError {
  readonly code = 'http_error';
  override readonly name = 'HttpStatusError';
  constructor(readonly status: number) {
    super(`unexpected HTTP status ${status}`);
  }
}

/** DNS failure, refused or reset connection, TLS failure... `causeCode` holds the Node code (ECONNRESET). */
export class NetworkError extends FetchError {
  readonly code = 'network_error';
  override readonly name = 'NetworkError';
  readonly causeCode?: string;
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    const code = (cause as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') this.causeCode = code;
  }
}

export class TooManyRedirectsError extends FetchError {
  readonly code = 'too_many_redirects';
  override readonly name = 'TooManyRedirectsError';
  constructor(readonly maxRedirects: number) {
    super(`more than ${maxRedirects} redirects`);
  }
}
