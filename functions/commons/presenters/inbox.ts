/** How callers see a delivery their webhook inbox received (GET /v1/inbox). */
import type { InboxEvent } from '#domain/inbox';

const parsed = (payload: string): unknown => {
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
};

export const toPublicInboxEvent = (event: InboxEvent) => ({
  webhook_id: event.webhookId,
  type: event.type ?? null,
  received_at: event.receivedAt,
  webhook_timestamp: new Date(event.webhookTimestamp * 1000).toISOString(),
  signature_verified: event.signatureVerified,
  expires_at: new Date(event.expiresAt * 1000).toISOString(),
  /** The body as JSON when it is JSON; `payload` is always the exact signed text. */
  event: parsed(event.payload),
  payload: event.payload,
});

/** The inbox's answer to a delivery it kept. */
export const toReceipt = (event: InboxEvent) => ({ webhook_id: event.webhookId, signature_verified: true, received_at: event.receivedAt });

/** The inbox address of an account, under the base URL the caller used. */
export const inboxUrl = (baseUrl: string, tenantId: string) => `${baseUrl}/v1/inbox/${encodeURIComponent(tenantId)}`;
