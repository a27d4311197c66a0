import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { buildVideoEvent } from '#commons/presenters/video';
import { generateWebhookSecret } from '#domain/api-keys';
import { eventIdFor } from '#domain/video';
import { type DeliverWebhookOptions, deliverWebhook, toDeliveryAttempt } from '#functions/notifier/deliver.ts';
import { fakeResolver, startServer, type TestServer } from '../../support/net.ts';
import { videoRecord } from './fixtures.ts';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function receiver(handler: Parameters<typeof startServer>[0]) {
  const s = await startServer(handler);
  servers.push(s);
  return s;
}

const secrets = [generateWebhookSecret(), generateWebhookSecret()];
const event = buildVideoEvent(videoRecord(), { url: 'https://example.com/v.mp4', expiresAt: '2025-01-08T00:00:00.000Z' }, new Date());
const eventId = eventIdFor('vid_123', event.type);
const options = (url: string, extra: Partial<DeliverWebhookOptions> = {}): DeliverWebhookOptions => ({
  url,
  event,
  eventId,
  secrets,
  mode: 'local',
  now: new Date(),
  ...extra,
});

describe('deliverWebhook', () => {
  it('POSTs the signed event; a 2xx is delivered', async () => {
    const s = await receiver((_req, res) => res.writeHead(200).end('thanks'));

    const result = await deliverWebhook(options(`${s.origin}/hook`));

    expect(result).toMatchObject({ ok: true, statusCode: 200, retryable: false });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const seen = s.requests[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': 'vidbot-webhooks/1', 'webhook-id': eventId });
    expect(JSON.parse(seen.body)).toEqual(event);
    const headers = seen.headers as Record<string, string>;
    for (const secret of secrets) expect(new Webhook(secret).verify(seen.body, headers)).toEqual(event);
  });

  it.each([
    [500, true],
    [503, true],
    [429, true],
    [404, true],
    [400, true],
    [410, false],
  ])('a %i answer is not delivered (retryable: %s)', async (status, retryable) => {
    const s = await receiver((_req, res) => res.writeHead(status).end('nope'));
    expect(await deliverWebhook(options(`${s.origin}/hook`))).toMatchObject({
      ok: false,
      statusCode: status,
      errorCode: 'http_error',
      error: `HTTP ${status}`,
      retryable,
    });
  });

  it('follows a 307 keeping the signed POST, but not a 302', async () => {
    const s = await receiver((req, res) => {
      if (req.url === '/old') res.writeHead(307, { location: '/new' }).end();
      else if (req.url === '/moved') res.writeHead(302, { location: '/new' }).end();
      else res.writeHead(204).end();
    });
    expect(await deliverWebhook(options(`${s.origin}/old`))).toMatchObject({ ok: true, statusCode: 204 });
    expect(s.requests[1]).toMatchObject({ method: 'POST', url: '/new', body: JSON.stringify(event) });
    expect(await deliverWebhook(options(`${s.origin}/moved`))).toMatchObject({
      ok: false,
      statusCode: 302,
      retryable: true,
      error: expect.stringMatching(/not followed/),
    });
  });

  it('accepts a 2xx with a large body, reading only the first 64 KB', async () => {
    const s = await receiver((_req, res) => res.writeHead(200).end(Buffer.alloc(1024 * 1024, 'x')));
    expect(await deliverWebhook(options(`${s.origin}/hook`))).toMatchObject({ ok: true, statusCode: 200 });
  });

  it('gives up on a receiver that does not answer in time, and will retry', async () => {
    const s = await receiver(() => {});
    const started = Date.now();
    const result = await deliverWebhook(options(`${s.origin}/hook`, { timeoutMs: 200 }));
    expect(result).toMatchObject({ ok: false, errorCode: 'timeout', retryable: true });
    expect(result.statusCode).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1200);
  });

  it('does not send to, nor retry, an address the guard refuses', async () => {
    const s = await receiver((_req, res) => res.end());
    const cloud = await deliverWebhook(options(`${s.origin}/hook`, { mode: 'cloud' }));
    expect(cloud).toMatchObject({ ok: false, errorCode: 'address_not_allowed', retryable: false });
    const resolve = fakeResolver({ 'metadata.test': ['169.254.169.254'] });
    expect(await deliverWebhook(options('http://metadata.test/hook', { resolve }))).toMatchObject({
      errorCode: 'address_not_allowed',
      retryable: false,
    });
    expect(s.requests).toHaveLength(0);
  });

  it('retries a refused connection, and does not deliver without a secret', async () => {
    const s = await receiver(() => {});
    const { port } = s;
    await servers.pop()!.close();
    expect(await deliverWebhook(options(`http://127.0.0.1:${port}/hook`))).toMatchObject({ ok: false, errorCode: 'network_error', retryable: true });
    expect(await deliverWebhook(options(`http://127.0.0.1:${port}/hook`, { secrets: [] }))).toMatchObject({
      ok: false,
      errorCode: 'no_secret',
      retryable: false,
    });
  });

  it('turns a result into the attempt stored on the video', () => {
    const at = new Date('2025-01-01T00:00:00.000Z');
    expect(
      toDeliveryAttempt({ ok: false, statusCode: 500, error: 'HTTP 500', errorCode: 'http_error', durationMs: 12, retryable: true }, 2, at),
    ).toEqual({
      attempt: 2,
      at: '2025-01-01T00:00:00.000Z',
      statusCode: 500,
      error: 'HTTP 500',
      durationMs: 12,
    });
    expect(toDeliveryAttempt({ ok: true, statusCode: 200, durationMs: 5, retryable: false }, 1, at)).toEqual({
      attempt: 1,
      at: at.toISOString(),
      statusCode: 200,
      durationMs: 5,
    });
  });
});
