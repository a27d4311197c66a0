/**
 * One delivery attempt of a webhook event: sign, POST through the address guard, classify the outcome.
 *
 * Policy (documented for callers in docs/webhooks.md):
 * - 2xx is delivered. The response body is read up to 64 KB and ignored.
 * - Every other outcome is retried on the schedule of retry.ts: network errors, the 10 s timeout, 3xx that is
 *   not followed, 4xx and 5xx alike, as most webhook providers and Standard Webhooks recommend: a receiver that
 *   is misconfigured now may be fixed within the 24 hours of retries.
 * - Not retried: 410 Gone (the receiver says the endpoint is gone for good), a URL the address guard refuses
 *   or that is invalid (it will not change), and having no active signing secret.
 * - Redirects: 307/308 are followed (up to 3, each re-checked by the guard) keeping POST and the body;
 *   301/302/303 are not turned into a GET (the event would be lost) and count as a failed attempt.
 */
import { performance } from 'node:perf_hooks';
import type { GuardMode, Resolver } from '#commons/net/address-guard';
import { FetchError, FetchTimeoutError } from '#commons/net/errors';
import { guardedFetch } from '#commons/net/guarded-fetch';
import type { BatchEvent, BotEvent, VideoEvent } from '#commons/webhooks/event';
import { signWebhook } from '#commons/webhooks/signature';
import type { DeliveryAttempt } from '#domain/video';

const WEBHOOK_TIMEOUT_MS = 10_000;
const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;
const WEBHOOK_MAX_REDIRECTS = 3;

export interface DeliverWebhookOptions {
  url: string;
  event: VideoEvent | BotEvent | BatchEvent;
  /** Stable id of the event (eventIdFor): the `webhook-id` header. */
  eventId: string;
  /** Active secrets (activeWebhookSecrets), newest first; each adds a signature. */
  secrets: readonly string[];
  mode: GuardMode;
  /** Time of this attempt: the `webhook-timestamp` header. */
  now: Date;
  /** @default 10 000 */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Host name resolver (tests inject one). */
  resolve?: Resolver;
}

export interface DeliveryResult {
  /** The receiver answered 2xx. */
  ok: boolean;
  statusCode?: number;
  /** Short description of the failure (no response body). */
  error?: string;
  /** Stable code: `http_error`, `timeout`, `network_error`, `address_not_allowed`, `no_secret`... */
  errorCode?: string;
  /** The underlying error's own message: for the log only (it may name addresses). */
  detail?: string;
  durationMs: number;
  /** A failed attempt that should be tried again (if attempts remain). False when ok. */
  retryable: boolean;
}

const NOT_RETRYABLE_CODES = new Set(['address_not_allowed', 'invalid_url']);

/**
 * What an attempt's failure says on the video record (public): our words by error code, never the network
 * stack's message, which can name a resolved (internal) address or host. The full error goes to the log.
 */
const PUBLIC_FETCH_ERRORS: Record<FetchError['code'], string> = {
  address_not_allowed: 'the webhook URL leads to an address we do not deliver to (private, loopback or link-local)',
  invalid_url: 'the webhook URL (or a redirect it gave) is not a valid http(s) URL',
  too_large: 'the response was too large',
  timeout: `no response within ${WEBHOOK_TIMEOUT_MS / 1000} s`,
  http_error: 'unexpected HTTP status',
  network_error: 'the connection failed (no such host, refused, reset, or a TLS error)',
  too_many_redirects: 'too many redirects',
  incomplete_body: 'the connection closed before the response ended',
};

export async function deliverWebhook(options: DeliverWebhookOptions): Promise<DeliveryResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.secrets.length === 0) {
    return { ok: false, error: 'no active webhook secret', errorCode: 'no_secret', durationMs: 0, retryable: false };
  }
  const payload = JSON.stringify(options.event);
  const headers = signWebhook({ msgId: options.eventId, timestamp: options.now, payload, secrets: options.secrets });
  try {
    const res = await guardedFetch(options.url, {
      mode: options.mode,
      method: 'POST',
      headers,
      body: payload,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      maxBytes: WEBHOOK_MAX_RESPONSE_BYTES,
      overflow: 'truncate',
      maxRedirects: WEBHOOK_MAX_REDIRECTS,
      acceptStatus: () => true,
      signal: options.signal,
      resolve: options.resolve,
    });
    const durationMs = elapsed();
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status, durationMs, retryable: false };
    const redirect = res.status >= 300 && res.status < 400;
    return {
      ok: false,
      statusCode: res.status,
      error: redirect ? `HTTP ${res.status} redirect not followed for POST` : `HTTP ${res.status}`,
      errorCode: 'http_error',
      durationMs,
      retryable: res.status !== 410,
    };
  } catch (err) {
    const durationMs = elapsed();
    if (err instanceof FetchError) {
      const message = err instanceof FetchTimeoutError ? `no response within ${err.timeoutMs / 1000} s` : PUBLIC_FETCH_ERRORS[err.code];
      return { ok: false, error: message, errorCode: err.code, detail: err.message, durationMs, retryable: !NOT_RETRYABLE_CODES.has(err.code) };
    }
    // An abort by the caller's signal (e.g. the Lambda running out of time): try again later.
    return {
      ok: false,
      error: 'the attempt was interrupted on our side; it will be retried',
      errorCode: 'aborted',
      detail: err instanceof Error ? err.message : String(err),
      durationMs,
      retryable: true,
    };
  }
}

/** The attempt as stored on the video record. */
export function toDeliveryAttempt(result: DeliveryResult, attempt: number, at: Date): DeliveryAttempt {
  return {
    attempt,
    at: at.toISOString(),
    ...(result.statusCode !== undefined ? { statusCode: result.statusCode } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    durationMs: result.durationMs,
  };
}
