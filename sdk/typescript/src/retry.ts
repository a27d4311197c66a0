import { retryAfterSeconds } from './errors.ts';

export interface RetryOptions {
  /** Attempts after the first on 429, 5xx and network failures. Default 3. */
  retries?: number;
  /** The first backoff; each next one doubles, with jitter. Default 500 ms. */
  baseDelayMs?: number;
  /** No single wait is longer than this, Retry-After included. Default 30 s. */
  maxDelayMs?: number;
}

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * A PUT that starts work as well as storing a document: a bot's PUT starts a preparation (a new version, a
 * `bot.ready` event), so a retry after a lost answer could prepare the bot twice.
 */
const PUT_STARTING_WORK = /^\/v1\/bot\/[^/]+$/;

/**
 * Whether a request may be sent twice without doing its work twice: reads and deletes are, and so is a POST or PUT
 * that carries an Idempotency-Key (the service answers a repeat with the first answer) or a PUT that only replaces
 * a named document (a template, the lexicon).
 */
const safeToRepeat = (request: Request) => {
  if (request.headers.has('idempotency-key')) return true;
  if (request.method === 'PUT') return !PUT_STARTING_WORK.test(new URL(request.url).pathname);
  return ['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(request.method);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait before attempt `attempt` (1-based): Retry-After when the service gave one, else exponential with full jitter. */
function retryDelayMs(attempt: number, response: Response | undefined, options: Required<RetryOptions>, random = Math.random): number {
  const told = response ? retryAfterSeconds(response.headers.get('retry-after')) : undefined;
  const wait = told !== undefined ? told * 1000 : options.baseDelayMs * 2 ** (attempt - 1) * (0.5 + random() / 2);
  return Math.min(wait, options.maxDelayMs);
}

/**
 * A fetch that retries what is safe to repeat on 429, 5xx and network failures, waiting as the service asks
 * (Retry-After) or backing off. Each attempt sends a fresh copy of the request (a body is read once).
 */
export function retryingFetch(inner: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const settings: Required<RetryOptions> = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000, ...options };
  return async (request: Request): Promise<Response> => {
    const repeatable = safeToRepeat(request);
    for (let attempt = 0; ; attempt++) {
      const last = !repeatable || attempt >= settings.retries;
      let response: Response;
      try {
        response = await inner(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal?.aborted) throw error;
        await sleep(retryDelayMs(attempt + 1, undefined, settings));
        continue;
      }
      if (last || !RETRIED_STATUSES.has(response.status)) return response;
      await response.body?.cancel();
      await sleep(retryDelayMs(attempt + 1, response, settings));
    }
  };
}
