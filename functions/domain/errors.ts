/**
 * The domain's errors: what went wrong in the language of videos, clips and bots, with no HTTP in them.
 * Use cases and adapters throw these; functions/commons/http.ts maps each to a status and the one error body,
 * and the queue jobs (functions/commons/jobs.ts) turn a JobFailedError into a failed video.
 */

/** One problem with one field of a request, e.g. `{ path: "clips[0].bot_uid", message: "unknown bot" }`. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** The caller's request is invalid; every problem is listed with its path. */
export class InvalidRequestError extends Error {
  constructor(
    readonly problems: FieldProblem[],
    message = 'The request is not valid.',
    /** The error code callers read: `invalid_request`, or a narrower one (`invalid_cursor`). */
    readonly code = 'invalid_request',
  ) {
    super(message);
    this.name = 'InvalidRequestError';
  }
}

/** A list's `cursor` that is not a `next_cursor` the same listing gave (crafted, another list's, another account's). */
export const invalidCursor = () =>
  new InvalidRequestError(
    [{ path: 'cursor', message: 'invalid' }],
    'The cursor is not valid; pass the next_cursor of a previous page.',
    'invalid_cursor',
  );

/** The thing asked for does not exist (or belongs to another account, which must look the same). */
export class NotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** The request does not fit the current state (a video still rendering, an id already taken). */
export class ConflictError extends Error {
  constructor(
    message: string,
    readonly code = 'conflict',
  ) {
    super(message);
    this.name = 'ConflictError';
  }
}

/** A create refused because the account already has as many videos in progress as it may. */
export class TooManyVideosInProgressError extends Error {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`the account already has ${limit} videos in progress`);
    this.name = 'TooManyVideosInProgressError';
  }
}

/** A bot's preparation refused because the account already has as many bots preparing as it may. */
export class TooManyBotsInProgressError extends Error {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`the account already has ${limit} bots preparing`);
    this.name = 'TooManyBotsInProgressError';
  }
}

/** A batch refused because the account already has as many batches running as it may. */
export class TooManyBatchesInProgressError extends Error {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`the account already has ${limit} batches running`);
    this.name = 'TooManyBatchesInProgressError';
  }
}

/** An upload refused because the account already has as many uploads waiting to be used as it may. */
export class TooManyPendingUploadsError extends Error {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
  ) {
    super(`the account already has ${limit} uploads waiting to be used`);
    this.name = 'TooManyPendingUploadsError';
  }
}

/**
 * A queue job failed in a way no retry can fix (a bad background, a missing bot, a render over its budget):
 * the video fails at once with this code and message. The message is public: written by us, never a tool's
 * output, a path or an address.
 */
export class JobFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly clipIndex?: number,
  ) {
    super(message);
    this.name = 'JobFailedError';
  }
}

/**
 * A delivery to the webhook inbox whose signature does not verify with the account's secrets (or whose account
 * does not exist, which must look the same): refused, nothing stored.
 */
export class SignatureRejectedError extends Error {
  constructor(message = "The webhook signature could not be verified with this account's webhook secrets.") {
    super(message);
    this.name = 'SignatureRejectedError';
  }
}

/** The thing exists but is not the caller's to change (a built-in bot). */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ForbiddenError';
  }
}
