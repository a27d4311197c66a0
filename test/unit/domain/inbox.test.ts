/** The inbox's rules, in memory: whose secrets verify a delivery, and a revoked key's grace. */
import { describe, expect, it } from 'vitest';
import { SignatureRejectedError } from '#domain/errors';
import { type InboxEvent, receiveDelivery } from '#domain/inbox';
import type { ApiKeyRecord } from '#domain/ports';

const now = new Date('2026-06-01T12:00:00.000Z');
const key = (secret: string, revokedAt?: string): ApiKeyRecord => ({
  keyHash: `h_${secret}`,
  keyId: `key_${secret}`,
  tenantId: 'acct_a',
  name: 'k',
  createdAt: '2026-01-01T00:00:00.000Z',
  webhookSecrets: [{ secret, createdAt: '2026-01-01T00:00:00.000Z' }],
  ...(revokedAt ? { revokedAt } : {}),
});

function deps(keys: ApiKeyRecord[]) {
  const stored: InboxEvent[] = [];
  return {
    stored,
    deps: {
      keys: { listByTenant: async () => keys },
      inbox: {
        putNew: async (e: InboxEvent) => (stored.some((s) => s.receivedKey === e.receivedKey) ? false : (stored.push(e), true)),
        list: async () => ({ items: stored }),
      },
      // Stands for the Standard Webhooks check: the header names the secret that signed.
      verify: (_body: string, headers: Record<string, string>, secrets: readonly string[]) => secrets.includes(headers['webhook-signature']!),
    },
  };
}
const delivery = (secret: string) => ({
  account: 'acct_a',
  body: '{"type":"video.completed"}',
  headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': secret },
});

describe('receiveDelivery', () => {
  it('accepts the secret of an active key, and of a key revoked within the last day (its videos still deliver)', async () => {
    const live = deps([key('s_live'), key('s_recent', '2026-06-01T02:00:00.000Z')]);
    await expect(receiveDelivery(live.deps, delivery('s_live'), now)).resolves.toMatchObject({ webhookId: 'evt_1', type: 'video.completed' });
    await expect(
      receiveDelivery(live.deps, { ...delivery('s_recent'), headers: { ...delivery('s_recent').headers, 'webhook-id': 'evt_2' } }, now),
    ).resolves.toBeTruthy();
    expect(live.stored).toHaveLength(2);
  });

  it('refuses the secret of a key revoked long ago, and stores nothing', async () => {
    const old = deps([key('s_old', '2026-05-29T00:00:00.000Z')]);
    await expect(receiveDelivery(old.deps, delivery('s_old'), now)).rejects.toBeInstanceOf(SignatureRejectedError);
    expect(old.stored).toHaveLength(0);
  });

  it('stores a replay once', async () => {
    const live = deps([key('s_live')]);
    for (let i = 0; i < 3; i++) await receiveDelivery(live.deps, delivery('s_live'), now);
    expect(live.stored).toHaveLength(1);
  });
});
