/**
 * Which failures are worth another attempt. A short, explicit list (as Remotion keeps one): a failure is
 * transient only if it is known to be; everything else is fatal, so a bad input fails fast instead of being
 * retried until the queue gives up.
 *
 * Transient:
 * - network faults of our own calls: ECONNRESET, ECONNABORTED, ETIMEDOUT, EPIPE, EAI_AGAIN (DNS hiccup),
 *   "socket hang up", undici socket/connect-timeout errors;
 * - AWS SDK throttling and server errors: the throttling/internal error names below, HTTP status 429 or >= 500
 *   in `$metadata`, or the SDK's own `$retryable` mark;
 * - a child process (ffmpeg) killed by SIGKILL (out of memory), or exit status 137;
 * - a background host answering 429, 502, 503 or 504.
 *
 * Not transient (decisions):
 * - a background download that times out (FetchTimeoutError): the host is too slow for our time budget, and
 *   retrying spends another full budget on the same host; the caller should provide a faster source;
 * - ENOSPC: /tmp is full because the input is too big for this function, not because of bad luck;
 * - ECONNREFUSED, ENOTFOUND: nothing listens there / no such host;
 * - guard refusals, invalid URLs, too-large bodies, too many redirects, other HTTP statuses.
 */
import { FetchError, HttpStatusError, NetworkError } from './errors.ts';

const TRANSIENT_ERRNO_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const TRANSIENT_AWS_ERROR_NAMES: ReadonlySet<string> = new Set([
  'ThrottlingException',
  'Throttling',
  'ThrottledException',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'SlowDown',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalError',
  'InternalFailure',
  'InternalServerError',
  'InternalServerException',
  'ServiceFailureException',
  'RequestTimeout',
  'RequestTimeoutException',
  'TimeoutError',
]);

const TRANSIENT_HTTP_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const TRANSIENT_MESSAGES = [/socket hang up/i, /\bECONNRESET\b/, /\bEAI_AGAIN\b/];

type ErrorLike = {
  name?: unknown;
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  signal?: unknown;
  exitCode?: unknown;
  status?: unknown;
  cause?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
};

export function isTransientError(err: unknown, depth = 0): boolean {
  if (err === null || typeof err !== 'object' || depth > 5) return false;
  const e = err as ErrorLike;
  if (err instanceof HttpStatusError) return TRANSIENT_HTTP_STATUSES.has(err.status);
  if (err instanceof NetworkError)
    return (err.causeCode !== undefined && TRANSIENT_ERRNO_CODES.has(err.causeCode)) || isTransientError(err.cause, depth + 1);
  if (err instanceof FetchError) return false;
  if (typeof e.code === 'string' && TRANSIENT_ERRNO_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && TRANSIENT_AWS_ERROR_NAMES.has(e.name)) return true;
  if (e.$retryable) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && (status === 429 || status >= 500)) return true;
  if (e.signal === 'SIGKILL' || e.exitCode === 137 || e.status === 137) return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGES.some((re) => re.test(e.message as string))) return true;
  return e.cause !== undefined && isTransientError(e.cause, depth + 1);
}

/** A failure as structured data, for logs and for the video record. */
export interface FailureReport {
  /** Stable machine code: our FetchError code, a Node/AWS error code or name, else `internal_error`. */
  code: string;
  message: string;
  transient: boolean;
  /** Transient and attempts remain. */
  willRetry: boolean;
  /** No further attempt will be made. */
  fatal: boolean;
  attempt: number;
  maxAttempts: number;
}

const MAX_MESSAGE_CHARS = 500;

export function failureReport(err: unknown, context: { attempt: number; maxAttempts: number }): FailureReport {
  const e = (err !== null && typeof err === 'object' ? err : {}) as ErrorLike;
  const code =
    typeof e.code === 'string' && e.code
      ? e.code
      : e.signal === 'SIGKILL'
        ? 'killed'
        : typeof e.name === 'string' && e.name && e.name !== 'Error'
          ? e.name
          : 'internal_error';
  const raw = err instanceof Error ? err.message : typeof err === 'string' ? err : typeof e.message === 'string' ? e.message : 'unknown error';
  const message = raw.length > MAX_MESSAGE_CHARS ? `${raw.slice(0, MAX_MESSAGE_CHARS - 1)}…` : raw;
  const transient = isTransientError(err);
  const willRetry = transient && context.attempt < context.maxAttempts;
  return { code, message, transient, willRetry, fatal: !willRetry, attempt: context.attempt, maxAttempts: context.maxAttempts };
}

/** A report as log keys (the logger reserves `message` for the log line itself). */
export const logFields = ({ message, ...rest }: FailureReport) => ({ ...rest, reason: message });
