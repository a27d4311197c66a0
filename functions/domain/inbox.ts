/**
 * The webhook inbox: a receiver vidbot runs for each account, so a caller can try webhooks without standing one
 * up. A delivery is kept only if its Standard Webhooks signature verifies with one of the account's active
 * secrets (the ones the notifier signs with); anything else is refused and nothing is stored. Kept deliveries
 * expire after a week (DynamoDB TTL on AWS; the emulator has none, so reads drop expired ones too).
 */
import { activeWebhookSecrets } from './api-keys.ts';
import { SignatureRejectedError } from './errors.ts';
import type { InboxStore, KeyStore, Page } from './ports.ts';

/** How long a verified delivery is kept. */
const INBOX_RETENTION_SECONDS = 7 * 24 * 60 * 60;
/** Largest delivery accepted (vidbot's own events are a few KB). */
export const INBOX_MAX_BODY_BYTES = 64 * 1024;
/**
 * A revoked key's secrets still sign the events of videos it created (until their deliveries end: the video
 * deadline plus the retry schedule's day), so the inbox accepts them that long after the revocation, no longer:
 * a secret leaked with its key stops writing "verified" events a day after the key is revoked.
 */
const REVOKED_KEY_GRACE_SECONDS = 26 * 60 * 60;
/** What an inbox address names: an account id (acct_ + url-safe base64). */
const ACCOUNT_ID = /^acct_[A-Za-z0-9_-]{1,64}$/;

export interface InboxEvent {
  tenantId: string;
  /**
   * Sort key: the signed timestamp then the webhook id. A redelivery is signed anew (a new timestamp), so it is an
   * entry of its own; the same signed delivery posted again (a replay) is the same key, and is not stored twice.
   */
  receivedKey: string;
  receivedAt: string;
  /** The `webhook-id` header (stable per video outcome: a redelivery repeats it). */
  webhookId: string;
  /** The `webhook-timestamp` header, epoch seconds. */
  webhookTimestamp: number;
  /** The event's `type` when the body is a JSON object carrying one. */
  type?: string;
  /** The body exactly as signed. */
  payload: string;
  /** Only verified deliveries are stored; kept on the record so the listing states it. */
  signatureVerified: true;
  /** Epoch seconds: the table's TTL attribute. */
  expiresAt: number;
}

/** A delivery as it reached the inbox: the raw body and the lower-cased headers. */
export interface InboxDelivery {
  account: string;
  body: string;
  headers: Record<string, string>;
}

/** Checks a Standard Webhooks signature (and timestamp tolerance) against a set of secrets. */
export type SignatureCheck = (body: string, headers: Record<string, string>, secrets: readonly string[]) => boolean;

const eventType = (body: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(body);
    const type = parsed && typeof parsed === 'object' ? (parsed as { type?: unknown }).type : undefined;
    return typeof type === 'string' ? type.slice(0, 100) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Receives one delivery: verifies it against the account's active secrets and stores it. Throws
 * SignatureRejectedError (and stores nothing) for an unknown account, a missing or wrong signature, or a stale
 * timestamp; the three look the same to the sender.
 */
export async function receiveDelivery(
  deps: { keys: Pick<KeyStore, 'listByTenant'>; inbox: InboxStore; verify: SignatureCheck },
  delivery: InboxDelivery,
  now: Date,
): Promise<InboxEvent> {
  if (!ACCOUNT_ID.test(delivery.account)) throw new SignatureRejectedError();
  const webhookId = delivery.headers['webhook-id'];
  const timestamp = Number(delivery.headers['webhook-timestamp']);
  if (!webhookId || webhookId.length > 256 || !delivery.headers['webhook-signature'] || !Number.isInteger(timestamp))
    throw new SignatureRejectedError();
  const keys = await deps.keys.listByTenant(delivery.account);
  const revokedLongAgo = (revokedAt?: string) => revokedAt !== undefined && now.getTime() - Date.parse(revokedAt) > REVOKED_KEY_GRACE_SECONDS * 1000;
  const secrets = keys.filter((key) => !revokedLongAgo(key.revokedAt)).flatMap((key) => activeWebhookSecrets(key, now));
  if (secrets.length === 0 || !deps.verify(delivery.body, delivery.headers, secrets)) throw new SignatureRejectedError();
  const receivedAt = now.toISOString();
  const event: InboxEvent = {
    tenantId: delivery.account,
    receivedKey: `${new Date(timestamp * 1000).toISOString()}#${webhookId}`,
    receivedAt,
    webhookId,
    webhookTimestamp: timestamp,
    type: eventType(delivery.body),
    payload: delivery.body,
    signatureVerified: true,
    expiresAt: Math.floor(now.getTime() / 1000) + INBOX_RETENTION_SECONDS,
  };
  // A replay of a delivery already kept is acknowledged like the first, and stored once.
  await deps.inbox.putNew(event);
  return event;
}

/** Whether an event is still inside its retention (the emulator keeps expired items; DynamoDB's TTL lags too). */
const unexpired = (event: Pick<InboxEvent, 'expiresAt'>, now: Date) => event.expiresAt > now.getTime() / 1000;

/** The account's events, newest first, without expired ones. */
export async function listInbox(
  inbox: InboxStore,
  tenantId: string,
  options: { limit: number; cursor?: string },
  now: Date,
): Promise<Page<InboxEvent>> {
  const page = await inbox.list(tenantId, options);
  return { items: page.items.filter((event) => unexpired(event, now)), nextCursor: page.nextCursor };
}
