/**
 * One account's backlog must not become another account's outage. Account A floods the service — 30 clips to
 * render; then dozens of videos that fail at once but whose webhook never answers — while account B makes one
 * small video. B's video must finish within twice its time alone plus one clip's render, and B's webhook must
 * arrive within its time alone plus one webhook timeout (A's deliveries hold their account's room until they end).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../../support/harness.ts';
import { keyTarget } from '../../support/reliability.ts';
import { type E2eService, startE2eService, stopE2eService } from '../../support/service.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiverA: E2eService['receiver'];
let hanging: Awaited<ReturnType<typeof startWebhookReceiver>>;
let receiverB: Awaited<ReturnType<typeof startWebhookReceiver>>;
let keyB: Record<string, string>;

beforeAll(async () => {
  ({ app, files, receiver: receiverA } = await startE2eService('vidbot-fairness-', { seconds: 2 }));
  const issued = await createKey(keyTarget(app), { name: 'account B' });
  keyB = { Authorization: `Bearer ${issued.apiKey}` };
  receiverB = await startWebhookReceiver(issued.webhookSecret);
  hanging = await startWebhookReceiver(app.webhookSecret, () => 'hang');
}, 180_000);
afterAll(async () => {
  await hanging?.stop().catch(() => {});
  await receiverB?.stop();
  await stopE2eService({ app, files, receiver: receiverA });
});

const A = () => app.authHeaders;
const post = (headers: Record<string, string>, body: unknown) =>
  fetch(`${app.baseUrl}/v1/bot`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const getVideo = async (headers: Record<string, string>, id: string) =>
  (await (await fetch(`${app.baseUrl}/v1/video/${id}`, { headers })).json()) as any;

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** B's one-clip video, from create to completed: seconds, and its clip's render time. */
async function smallVideoOfB(text: string) {
  const started = Date.now();
  const response = await post(keyB, { webhook: receiverB.url, clips: [{ bot_uid: 'bot_maya', text }] });
  expect(response.status).toBe(202);
  const { video_id } = (await response.json()) as { video_id: string };
  const video = await until(async () => {
    const v = await getVideo(keyB, video_id);
    return v.status === 'completed' || v.status === 'failed' ? v : undefined;
  }, 120_000);
  expect(video.status).toBe('completed');
  return { seconds: (Date.now() - started) / 1000, renderSeconds: video.clips[0].render_seconds as number, videoId: video_id };
}

describe('fair scheduling between accounts', () => {
  it("renders: B's one-clip video is not queued behind A's 30 clips", async () => {
    const alone = await smallVideoOfB('Hello from account B, alone.');
    const clipsOfA = await Promise.all(
      [0, 1, 2].map(async (v) => {
        const clips = Array.from({ length: 10 }, (_, i) => ({
          bot_uid: 'bot_ava',
          text: `Account A, video ${v}, clip ${i}: a short line to render.`,
        }));
        const response = await post(A(), { webhook: receiverA.url, clips });
        expect(response.status).toBe(202);
        return ((await response.json()) as { video_id: string }).video_id;
      }),
    );
    const busy = await smallVideoOfB('Hello from account B, while account A renders thirty clips.');
    // One clip of A's may be rendering in each slot when B's arrives: B waits for at most one of them.
    const oneClip = Math.max(alone.renderSeconds, busy.renderSeconds);
    const bound = 2 * alone.seconds + oneClip;
    console.log(
      `fairness (renders): B alone ${alone.seconds.toFixed(1)} s, B behind A's 30 clips ${busy.seconds.toFixed(1)} s, bound ${bound.toFixed(1)} s`,
    );
    expect(busy.seconds).toBeLessThanOrEqual(bound);
    // A's work still gets done: thirty clips on two workers take minutes on a 2-core machine, so one deadline for all
    // of them, and a failed video is named at once rather than waited on.
    const deadline = Date.now() + 360_000;
    for (const id of clipsOfA) {
      const video = await until(async () => {
        const v = await getVideo(A(), id);
        return v.status === 'completed' || v.status === 'failed' ? v : undefined;
      }, deadline - Date.now());
      expect({ id, status: video.status, error: video.error }).toEqual({ id, status: 'completed', error: null });
    }
  }, 540_000);

  it("webhooks: A's fast-failing videos with a hanging webhook hold A's room, and B's webhook still arrives", async () => {
    const failing = { webhook: hanging.url, clips: [{ bot_uid: 'bot_ava', text: 'This fails at once.', background: `${files.base}/missing.mp4` }] };
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 60 && refused === 0; i++) {
      const response = await post(A(), failing);
      if (response.status === 202) accepted++;
      else if (response.status === 429) refused++;
      await response.text();
      // Let the video fail before the next create: fast failures are what the old count let through.
      await new Promise((r) => setTimeout(r, 150));
    }
    // A finished video still delivering its event counts as work in progress: A is held to its limit.
    expect(refused).toBe(1);
    expect(accepted).toBeLessThanOrEqual(20);

    const started = Date.now();
    const { videoId } = await smallVideoOfB('Hello from account B, while account A waits on its webhooks.');
    const event = await until(async () => receiverB.delivered().find((d) => d.event?.data.video_id === videoId), 60_000);
    expect(event).toBeDefined();
    const latency = (Date.now() - started) / 1000;
    // At most the deliveries already in flight (one webhook timeout, 10 s) stand before B's.
    console.log(`fairness (webhooks): B's video and webhook in ${latency.toFixed(1)} s behind ${accepted} hanging deliveries of A`);
    expect(latency).toBeLessThanOrEqual(25);
  }, 240_000);
});
