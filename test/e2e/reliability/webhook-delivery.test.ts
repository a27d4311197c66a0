/**
 * Webhook delivery against slow and failing receivers, on the real notifier and notify queue (with its DLQ).
 * VIDBOT_DELIVERY_DELAY_SCALE 0.0002 shrinks the 24 h schedule of 12 attempts to about 20 s: the first five
 * retries come at once, the last ones 1-6 s apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, clip, eventually, freePort, queueDepth, startReceiver } from '../../support/reliability.ts';

let app: TestRuntime;
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
const receiver = async (options: Parameters<typeof startReceiver>[1]) => {
  const r = await startReceiver(app.webhookSecret, options);
  receivers.push(r);
  return r;
};

beforeAll(async () => {
  app = await startTestRuntime({ functionEnvironment: { VIDBOT_DELIVERY_DELAY_SCALE: '0.0002' } });
}, 60_000);
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await app?.stop();
});

const voiceOnly = (webhook: string, text: string) => ({ webhook, create_video: false, clips: [clip(text)] });

describe.concurrent('webhook delivery to slow and failing receivers', () => {
  it('retries a receiver that answers 500 twice, records each attempt, then delivers once', async () => {
    const rx = await receiver({ respond: (n) => (n <= 2 ? 500 : 204) });
    const api = client(app);
    const videoId = await api.createOk(voiceOnly(rx.url, 'Five hundred twice.'));
    const video = await api.waitForVideo(videoId, (v) => v.webhook.state === 'delivered', 60_000, 'delivery after two 500s');

    expect(video.status).toBe('completed');
    expect(video.webhook.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 204],
    ]);
    expect(video.webhook.attempts[0]!.error).toBe('HTTP 500');
    expect(video.webhook.attempts[2]!.error).toBeNull();
    const hits = rx.hitsFor(videoId);
    expect(hits.map((h) => h.answer)).toEqual([500, 500, 204]);
    expect(hits.every((h) => h.verified)).toBe(true);
    // The same event each time: one webhook-id, so a receiver can drop duplicates.
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
  }, 90_000);

  it('retries a receiver that hangs past the 10 s timeout once, then delivers', async () => {
    const rx = await receiver({ respond: (n) => (n === 1 ? 'hang' : 204) });
    const api = client(app);
    const videoId = await api.createOk(voiceOnly(rx.url, 'Hanging once.'));
    const video = await api.waitForVideo(videoId, (v) => v.webhook.state === 'delivered', 60_000, 'delivery after a timeout');

    const [first, second] = video.webhook.attempts;
    expect(video.webhook.attempts).toHaveLength(2);
    expect(first!.status_code).toBeNull();
    expect(first!.error).toBe('no response within 10 s');
    expect(first!.duration_ms).toBeGreaterThanOrEqual(9_900);
    expect(second!.status_code).toBe(204);
    expect(rx.deliveredFor(videoId)).toHaveLength(1);
    expect(rx.deliveredFor(videoId)[0]!.verified).toBe(true);
  }, 90_000);

  it('dead-letters an event after 12 attempts to a receiver that is down, and redelivers it on request', async () => {
    const port = await freePort(); // nothing listens here: every attempt is refused
    allowLoopbackPort(port); // a receiver of this test's, down for now
    const webhook = `http://127.0.0.1:${port}/hooks/vidbot`;
    const api = client(app);
    const videoId = await api.createOk(voiceOnly(webhook, 'Nobody is listening.'));

    const failed = await api.waitForVideo(videoId, (v) => v.webhook.state === 'failed', 90_000, 'all 12 attempts to fail');
    expect(failed.status).toBe('completed');
    expect(failed.webhook.attempts).toHaveLength(12);
    expect(failed.webhook.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const attempt of failed.webhook.attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toBeTruthy();
    }
    // The message itself ends in the notify DLQ.
    await eventually(async () => ((await queueDepth(app, 'notify', 'dlq')) === 1 ? true : undefined), 20_000, 'the event in the notify DLQ');

    // The receiver comes back at the same URL; the caller asks for a redelivery.
    const rx = await receiver({ port });
    expect(rx.url).toBe(webhook);
    const res = await api.fetch(`/v1/video/${videoId}/redeliver`, { method: 'POST' });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ video_id: videoId, status: 'redelivery_queued' });

    const delivered = await api.waitForVideo(videoId, (v) => v.webhook.state === 'delivered', 30_000, 'the redelivery');
    expect(delivered.webhook.attempts).toHaveLength(13);
    expect(delivered.webhook.attempts[12]!.status_code).toBe(204);
    const hits = rx.hitsFor(videoId);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.verified).toBe(true);
    expect(JSON.parse(hits[0]!.body)).toMatchObject({ type: 'video.completed', data: { video_id: videoId } });
  }, 150_000);
});
