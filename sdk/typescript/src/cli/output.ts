import { VidbotError, VideoFailedError, WaitTimeoutError } from '../errors.ts';
import { WebhookSignatureError } from '../webhooks.ts';

/** What an exit code says failed; `vidbot --help` lists them. */
export const EXIT = {
  ok: 0,
  /** Anything unexpected. */
  error: 1,
  /** The command line: an unknown command, a missing option, an unreadable file. */
  usage: 2,
  /** The key: missing, unknown, revoked (401), or not allowed (403). */
  unauthorized: 3,
  /** The service refused the request (400, 404, 409, 413, 415, 422): the message names the field. */
  refused: 4,
  /** The service is busy or unreachable (429, 5xx, network) after the retries. */
  unavailable: 5,
  /** The video (or a bot's preparation) ended failed. */
  failed: 6,
  /** --wait ran past --timeout; the work may still finish. */
  timeout: 7,
  /** webhook verify: the signature does not verify. */
  badSignature: 8,
  /** The service does not offer this yet (its route answers 404). */
  notOffered: 9,
} as const;

export class UsageError extends Error {}

/** An operation the service does not offer (its route answers 404 not_found). */
export class NotOfferedError extends Error {}

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  json: boolean;
  /** Progress may redraw lines in place (stderr is a terminal). */
  tty: boolean;
}

/** Prints a result: JSON as is with --json, else the human lines. */
export function print(io: Io, value: unknown, human: () => string) {
  io.out(io.json ? JSON.stringify(value, null, 2) : human());
}

/** The exit code and message of an error, printed on stderr (as JSON with --json). */
export function fail(io: Io, error: unknown): number {
  const [code, body] = describe(error);
  io.err(io.json ? JSON.stringify({ error: body }) : `vidbot: ${body.message}${detailsText(body.details)}`);
  return code;
}

type ErrorBody = { code: string; message: string; details?: { path: string; message: string }[] };

function describe(error: unknown): [number, ErrorBody] {
  if (error instanceof UsageError) return [EXIT.usage, { code: 'usage', message: error.message }];
  if (error instanceof NotOfferedError) return [EXIT.notOffered, { code: 'not_offered', message: error.message }];
  if (error instanceof VideoFailedError) return [EXIT.failed, { code: error.code, message: `${error.videoId} failed: ${error.message}` }];
  if (error instanceof WaitTimeoutError) return [EXIT.timeout, { code: 'timeout', message: error.message }];
  if (error instanceof WebhookSignatureError)
    return [EXIT.badSignature, { code: 'invalid_signature', message: `the signature does not verify: ${error.message}` }];
  if (error instanceof VidbotError) {
    const body = { code: error.code, message: error.message, details: error.details };
    if (error.status === 401 || error.status === 403) return [EXIT.unauthorized, body];
    if (error.status === 429 || error.status >= 500) return [EXIT.unavailable, body];
    return [EXIT.refused, body];
  }
  if (error instanceof TypeError && /fetch failed/.test(error.message))
    return [
      EXIT.unavailable,
      { code: 'unreachable', message: `the service did not answer (${String((error as { cause?: unknown }).cause ?? error.message)})` },
    ];
  return [EXIT.error, { code: 'error', message: error instanceof Error ? error.message : String(error) }];
}

const detailsText = (details: ErrorBody['details']) => (details?.length ? `\n${details.map((d) => `  ${d.path}: ${d.message}`).join('\n')}` : '');
