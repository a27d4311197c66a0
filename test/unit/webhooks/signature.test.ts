import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook } from '#commons/webhooks/signature';
import { activeWebhookSecrets, generateWebhookSecret, issueApiKey, rotateWebhookSecret } from '#domain/api-keys';

const payload = JSON.stringify({ type: 'video.completed', data: { video_id: 'vid_1' } });

describe('signWebhook', () => {
  it('produces Standard Webhooks headers that the receiver library verifies', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ msgId: 'evt_vid_1_completed', timestamp: new Date(), payload, secrets: [secret] });
    expect(headers).toMatchObject({ 'webhook-id': 'evt_vid_1_completed', 'content-type': 'application/json', 'user-agent': 'vidbot-webhooks/1' });
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
  });

  it('signs with every active secret during a rotation; each verifies alone, a stranger does not', () => {
    // Prepare: a key whose secret was rotated, the old one still in its grace period.
    const now = new Date();
    const { record, webhookSecret: oldSecret } = issueApiKey({ tenantId: 'acct_1', name: 'k', now });
    const { newSecret, webhookSecrets } = rotateWebhookSecret(record, now, 24 * 3600);
    const secrets = activeWebhookSecrets({ webhookSecrets }, now);
    expect(secrets).toEqual([newSecret, oldSecret]);

    // Act
    const headers = signWebhook({ msgId: 'evt_vid_1_completed', timestamp: now, payload, secrets });

    // Assess: two space-separated signatures, and a receiver holding either secret accepts the message.
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(new Webhook(oldSecret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(generateWebhookSecret()).verify(payload, headers)).toThrow(WebhookVerificationError);
  });

  it('binds the signature to the body, the id and the timestamp', () => {
    const secret = generateWebhookSecret();
    const headers = signWebhook({ msgId: 'evt_a', timestamp: new Date(), payload, secrets: [secret] });
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(payload.replace('vid_1', 'vid_2'), headers)).toThrow(WebhookVerificationError);
    expect(() => receiver.verify(payload, { ...headers, 'webhook-id': 'evt_b' })).toThrow(WebhookVerificationError);
    expect(() => receiver.verify(payload, { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) })).toThrow(
      WebhookVerificationError,
    );
  });

  it('signs once per distinct secret and refuses to sign with none', () => {
    const secret = generateWebhookSecret();
    expect(signWebhook({ msgId: 'e', timestamp: new Date(), payload, secrets: [secret, secret] })['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => signWebhook({ msgId: 'e', timestamp: new Date(), payload, secrets: [] })).toThrow(/no webhook secret/);
  });
});
