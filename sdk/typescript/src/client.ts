import createClient, { type Client } from 'openapi-fetch';
import { VidbotError } from './errors.ts';
import type { paths } from './generated/openapi.ts';
import { type RetryOptions, retryingFetch } from './retry.ts';

export interface VidbotOptions {
  /** The service's address, e.g. http://127.0.0.1:3000 or https://….execute-api….amazonaws.com/prod. */
  baseUrl: string;
  /** A key (`vb_…`), live or test. */
  apiKey: string;
  /** Retries on 429, 5xx and network failures of requests that are safe to repeat. */
  retry?: RetryOptions;
  /** Another fetch (tests, a proxy); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
}

/** The typed transport: every path and operation of the OpenAPI document, with the key and retries applied. */
export type VidbotApi = Client<paths>;

export function createApi(options: VidbotOptions): VidbotApi {
  const inner = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(inner, options.retry),
  });
}

/** The body of a success, or the API's error as a VidbotError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok && result.error === undefined) return result.data as T;
  throw VidbotError.from(result.response, result.error);
}

/** A fresh Idempotency-Key: a retried create or batch is then answered, not done twice. */
export const newIdempotencyKey = () => globalThis.crypto.randomUUID();
