import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { VideoEvent } from './types.ts';

/** A bot's or a batch's event: its type and data as the service documents them (docs/webhooks.md). */
export interface OtherEvent {
  type: 'bot.ready' | 'bot.failed' | 'batch.completed';
  timestamp: string;
  data: Record<string, unknown>;
}
export type WebhookEvent = VideoEvent | OtherEvent;

/** The three Standard Webhooks headers, from a Headers object or a plain record (any letter case). */
type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: HeaderSource): Record<string, string> {
  const read = (name: string) => {
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    const value = key ? headers[key] : undefined;
    return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
  };
  return { 'webhook-id': read('webhook-id'), 'webhook-timestamp': read('webhook-timestamp'), 'webhook-signature': read('webhook-signature') };
}

/** The signature did not verify (wrong secret, altered body, or a timestamp more than 5 minutes away). */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
}

/**
 * Verifies a delivery with the Standard Webhooks library the service signs with, and returns its event. `body` must
 * be the raw bytes as received (a re-serialised JSON does not verify); `secret` is the key's `whsec_…`.
 */
export function verifyWebhook(body: string | Uint8Array, headers: HeaderSource, secret: string): WebhookEvent {
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  try {
    return new Webhook(secret).verify(payload, headerRecord(headers)) as WebhookEvent;
  } catch (error) {
    if (error instanceof WebhookVerificationError) throw new WebhookSignatureError(error.message);
    throw error;
  }
}

export const isVideoEvent = (event: WebhookEvent): event is VideoEvent => event.type === 'video.completed' || event.type === 'video.failed';
