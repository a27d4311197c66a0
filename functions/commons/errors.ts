/**
 * The HTTP layer's own errors (a body it cannot read, a missing key, no such route), each carrying its status
 * and stable code. The domain's errors are answered by the table in functions/commons/http.ts; anything else
 * becomes a plain 500 that leaks nothing.
 */
import { KEY_REQUIRED, WWW_AUTHENTICATE } from './gateway-messages.ts';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends ApiError {
  constructor(message: string, details?: ErrorDetail[], code = 'invalid_request') {
    super(400, code, message, details);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = KEY_REQUIRED) {
    super(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': WWW_AUTHENTICATE });
  }
}

export class RouteNotFoundError extends ApiError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(allowed: string[]) {
    super(405, 'method_not_allowed', `Method not allowed here; use ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
  }
}

export class IdempotencyKeyReusedError extends ApiError {
  constructor() {
    super(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(maxBytes: number, hint?: string) {
    super(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes.${hint ? ` ${hint}` : ''}`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(received: string | undefined, accepted: string[]) {
    super(
      415,
      'unsupported_media_type',
      `Content-Type ${received ? `"${received}"` : '(none)'} is not accepted; send one of ${accepted.join(', ')}.`,
    );
  }
}
