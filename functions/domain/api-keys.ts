import { createHash, randomBytes } from 'node:crypto';
import type { Account, ApiKeyRecord } from './ports.ts';

/** Keys look like `vb_<43 url-safe base64 chars>`: 256 random bits, recognisable in logs and secret scanners. */
const API_KEY_PREFIX = 'vb_';
const API_KEY_PATTERN = /^vb_[A-Za-z0-9_-]{43}$/;

/** Keys are stored only as this hash. SHA-256 suffices: the key is 256 random bits, not a password. */
export const hashApiKey = (apiKey: string) => createHash('sha256').update(apiKey, 'utf8').digest('hex');

export const looksLikeApiKey = (value: string) => API_KEY_PATTERN.test(value);

export const looksLikeWebhookSecret = (value: string) => /^whsec_[A-Za-z0-9+/=]{20,}$/.test(value);

export const generateApiKey = () => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

/** A Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url')}`;

/**
 * The value of the API Gateway API key that carries a vidbot key's request rate: the authorizer returns it as
 * usageIdentifierKey and the usage plan throttles per value. Random rather than derived from the bearer key, as
 * it is stored in plain text (key record, API Gateway) and must reveal nothing of it; callers never send it.
 * 43 characters, inside API Gateway's 20 to 128.
 */
export const generateUsagePlanKey = () => `vbu${randomBytes(20).toString('hex')}`;

export interface IssuedKey {
  /** Shown once to the caller, never stored. */
  apiKey: string;
  webhookSecret: string;
  record: ApiKeyRecord;
}

/** Issues a key for a tenant. `apiKey`/`webhookSecret` may be given (the local runtime's DEV_API_KEY). */
export function issueApiKey(options: {
  tenantId: string;
  name: string;
  now: Date;
  apiKey?: string;
  webhookSecret?: string;
  test?: boolean;
}): IssuedKey {
  const apiKey = options.apiKey ?? generateApiKey();
  if (!looksLikeApiKey(apiKey)) throw new Error(`api key must match ${API_KEY_PATTERN}`);
  const webhookSecret = options.webhookSecret ?? generateWebhookSecret();
  if (!looksLikeWebhookSecret(webhookSecret)) throw new Error('webhook secret must be whsec_<base64>');
  const createdAt = options.now.toISOString();
  return {
    apiKey,
    webhookSecret,
    record: {
      keyHash: hashApiKey(apiKey),
      keyId: newId('key'),
      tenantId: options.tenantId,
      name: options.name,
      createdAt,
      webhookSecrets: [{ secret: webhookSecret, createdAt }],
      usageIdentifierKey: generateUsagePlanKey(),
      ...(options.test && { test: true as const }),
    },
  };
}

export const newAccount = (name: string, now: Date): Account => ({ tenantId: newId('acct'), name, createdAt: now.toISOString() });

/** Secrets that sign an event now: the current one plus any older one still inside its grace period. */
export function activeWebhookSecrets(record: Pick<ApiKeyRecord, 'webhookSecrets'>, now: Date): string[] {
  return record.webhookSecrets.filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > now.getTime()).map((s) => s.secret);
}

/** Rotation: a new secret signs first; the old ones keep signing until `graceSeconds` from now. */
export function rotateWebhookSecret(record: ApiKeyRecord, now: Date, graceSeconds: number, newSecret = generateWebhookSecret()) {
  const expiresAt = new Date(now.getTime() + graceSeconds * 1000).toISOString();
  const kept = record.webhookSecrets
    .filter((s) => !s.expiresAt || Date.parse(s.expiresAt) > now.getTime())
    .map((s) => ({ ...s, expiresAt: s.expiresAt && s.expiresAt < expiresAt ? s.expiresAt : expiresAt }));
  return { newSecret, webhookSecrets: [{ secret: newSecret, createdAt: now.toISOString() }, ...kept] };
}
