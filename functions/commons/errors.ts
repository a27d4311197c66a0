/**
 * Typed errors, each carrying its HTTP status and stable code. Handlers throw them; functions/commons/http.ts
 * maps them to the one error body shape. Anything else becomes a plain 500 that leaks nothing.
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

export class NotFoundError extends ApiError {
  constructor(message = 'Not found.') {
    super(404, 'not_found', message);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(allowed: string[]) {
    super(405, 'method_not_allowed', `Method not allowed here; use ${allowed.join(', ')}.`, undefined, { Allow: allowed.join(', ') });
  }
}

export class ConflictError extends ApiError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
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

/** The account's limit of videos in progress is reached (the request rate's 429 is API Gateway's own answer). */
export class TooManyVideosInProgressError extends ApiError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      429,
      'too_many_videos_in_progress',
      `Your account already has ${limit} videos queued or rendering, the most it may have at once. ` +
        `Retry once one of them has completed or failed (GET /v1/video lists them); the limit can be raised on request.`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** The account's limit of bots preparing at once is reached. */
export class TooManyBotsInProgressError extends ApiError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      429,
      'too_many_bots_in_progress',
      `Your account already has ${limit} bots preparing, the most it may have at once. Retry once one of them is ready or failed (GET /v1/bot).`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** The account's limit of batches running at once is reached. */
export class TooManyBatchesInProgressError extends ApiError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      429,
      'too_many_batches_in_progress',
      `Your account already has ${limit} batches queued or running, the most it may have at once. Retry once one of them has settled (GET /v1/batches), or cancel one (DELETE /v1/batches/{id}).`,
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    );
  }
}

/** A delivery to the webhook inbox that does not verify (no bearer scheme applies: no WWW-Authenticate). */
export class WebhookSignatureError extends ApiError {
  constructor(message: string) {
    super(401, 'invalid_signature', message);
  }
}

/** The thing exists but the caller may not change it (a built-in bot). */
export class ForbiddenError extends ApiError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}
