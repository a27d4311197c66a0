/**
 * 50 creates at once: every one is accepted, every video completes, each video's webhook arrives exactly
 * once, and nothing is left in any dead-letter queue. Voice-only clips (create_video=false) with distinct
 * texts, so each clip is really synthesised and encoded (the render cache would skip identical clips).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setVideosInProgressLimit } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, clip, eventually, keyTarget, queueDepth, sleep, startReceiver } from '../../support/reliability.ts';

const COUNT = 50;
let app: TestRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // No per-key throttle (50 creates and 50 reads at once are over its burst), and room for 50 videos in progress,
  // set as an operator would (npm run keys -- limit).
  app = await startTestRuntime({ requestRate: false });
  await setVideosInProgressLimit(keyTarget(app), app.tenantId, COUNT);
  receiver = await startReceiver(app.webhookSecret);
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

describe(`${COUNT} concurrent creates`, () => {
  it('all complete, each webhook arrives exactly once, no DLQ holds anything', async () => {
    const api = client(app);
    const run = Date.now().toString(36);
    const responses = await Promise.all(
      Array.from({ length: COUNT }, (_, i) => api.create({ webhook: receiver.url, create_video: false, clips: [clip(`Load ${run} number ${i}.`)] })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(COUNT).fill(202));
    const ids = responses.map((r) => r.body.video_id);
    expect(new Set(ids).size).toBe(COUNT);

    await eventually(async () => (ids.every((id) => receiver.deliveredFor(id).length >= 1) ? true : undefined), 150_000, `${COUNT} webhooks`, 500);
    // Let any duplicate show up before counting.
    await sleep(3_000);

    const perVideo = new Map<string, number>();
    for (const hit of receiver.hits) perVideo.set(hit.videoId ?? '?', (perVideo.get(hit.videoId ?? '?') ?? 0) + 1);
    expect([...perVideo.keys()].sort()).toEqual([...ids].sort());
    expect([...perVideo.values()].every((n) => n === 1)).toBe(true);
    expect(receiver.hits.every((h) => h.verified)).toBe(true);
    expect(receiver.hits.every((h) => JSON.parse(h.body).type === 'video.completed')).toBe(true);

    const videos = await Promise.all(ids.map((id) => api.video(id)));
    expect(videos.filter((v) => v.status !== 'completed').map((v) => [v.video_id, v.status, v.error])).toEqual([]);
    expect(videos.filter((v) => v.webhook.state !== 'delivered' || v.webhook.attempts.length !== 1).map((v) => v.video_id)).toEqual([]);

    for (const queue of ['render', 'assemble', 'notify']) expect(await queueDepth(app, queue, 'dlq'), `${queue} DLQ`).toBe(0);
  }, 200_000);
});
