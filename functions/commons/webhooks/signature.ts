/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): HMAC-SHA256 over `<id>.<timestamp>.<body>`,
 * computed by the `standardwebhooks` package. During a secret rotation every active secret signs, and the
 * `webhook-signature` header lists one `v1,<base64>` per secret separated by spaces; a receiver's
 * `Webhook.verify` accepts the message if any of them matches its secret.
 */
import { Webhook } from 'standardwebhooks';

const WEBHOOK_USER_AGENT = 'vidbot-webhooks/1';

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
  'content-type': 'application/json';
  'user-agent': string;
  [name: string]: string;
}

/** Signs `payload` (the exact bytes sent) with every secret. Throws if there is no secret. */
export function signWebhook(options: { msgId: string; timestamp: Date; payload: string; secrets: readonly string[] }): WebhookHeaders {
  if (options.secrets.length === 0) throw new Error('no webhook secret to sign with');
  const signatures = [...new Set(options.secrets)].map((secret) => new Webhook(secret).sign(options.msgId, options.timestamp, options.payload));
  return {
    'webhook-id': options.msgId,
    'webhook-timestamp': String(Math.floor(options.timestamp.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
  };
}

/**
 * Whether a received message verifies with any of `secrets` (Standard Webhooks: the signature and a timestamp
 * within five minutes of now). The webhook inbox's check; `signWebhook` is its counterpart.
 */
export function verifyWebhook(payload: string, headers: Record<string, string>, secrets: readonly string[]): boolean {
  const wanted = {
    'webhook-id': headers['webhook-id'] ?? '',
    'webhook-timestamp': headers['webhook-timestamp'] ?? '',
    'webhook-signature': headers['webhook-signature'] ?? '',
  };
  return secrets.some((secret) => {
    try {
      new Webhook(secret).verify(payload, wanted);
      return true;
    } catch {
      return false;
    }
  });
}
