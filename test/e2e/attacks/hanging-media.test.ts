/**
 * Waiting on a stranger's server must hold no render or assembly. Account A queues videos whose background, logo
 * or music URL never answers (the server accepts the connection and says nothing); account B then makes a one-clip
 * video with a background. Every download of A's waits in the fetch stage (functions/fetcher) until the media pace
 * gives it up, so B's video finishes within twice its time alone plus one clip's render, and A's videos fail by name.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import { createKey } from '#infra/scripts/keys.ts';
import type { TestRuntime } from '../../support/harness.ts';
import { startServer, type TestServer } from '../../support/net.ts';
import { keyTarget } from '../../support/reliability.ts';
import { type E2eService, startE2eService, stopE2eService } from '../../support/service.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

let app: TestRuntime;
let files: E2eService['files'];
let receiverA: E2eService['receiver'];
let receiverB: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hanging: TestServer;
let keyB: Record<string, string>;
/** What the hanging server holds open: answered only when the test ends. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  ({ app, files, receiver: receiverA } = await startE2eService('vidbot-hanging-media-', { seconds: 2 }));
  const issued = await createKey(keyTarget(app), { name: 'account B' });
  keyB = { Authorization: `Bearer ${issued.apiKey}` };
  receiverB = await startWebhookReceiver(issued.webhookSecret);
  hanging = await startServer((_req, res) => void held.push(res));
  allowLoopbackPort(hanging.port);
}, 180_000);
afterAll(async () => {
  for (const res of held.splice(0)) res.destroy();
  await hanging?.close();
  await receiverB?.stop();
  await stopE2eService({ app, files, receiver: receiverA });
});

const A = () => app.authHeaders;
const post = async (headers: Record<string, string>, body: unknown) => {
  const response = await fetch(`${app.baseUrl}/v1/bot`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { video_id: string };
  expect(response.status, JSON.stringify(answer)).toBe(202);
  return answer.video_id;
};
const getVideo = async (headers: Record<string, string>, id: string) =>
  (await (await fetch(`${app.baseUrl}/v1/video/${id}`, { headers })).json()) as any;

async function ended(headers: Record<string, string>, id: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const video = await getVideo(headers, id);
    if (video.status === 'completed' || video.status === 'failed') return video;
    if (Date.now() > deadline) throw new Error(`video ${id} still ${video.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** B's one-clip video over the served background, from create to completed: seconds, and its clip's render time. */
async function videoOfB(text: string) {
  const started = Date.now();
  const id = await post(keyB, { webhook: receiverB.url, clips: [{ bot_uid: 'bot_maya', text, background: `${files.base}/background.mp4` }] });
  const video = await ended(keyB, id, 240_000);
  expect({ status: video.status, error: video.error }).toEqual({ status: 'completed', error: null });
  return { seconds: (Date.now() - started) / 1000, renderSeconds: video.clips[0].render_seconds as number };
}

describe('media that never arrives', () => {
  it("holds no render or assembly: B's one-clip video is not delayed by A's hanging backgrounds, logos and music", async () => {
    // The first video of the runtime starts its environments: B's time alone is measured warm.
    await videoOfB('Hello from account B, warming up.');
    const alone = await videoOfB('Hello from account B, alone.');

    const url = (name: string) => `${hanging.origin}/${name}`;
    const clip = (i: number) => ({ bot_uid: 'bot_ava', text: `Account A waits on its media, video ${i}.` });
    const ofA = await Promise.all([
      // Three hanging backgrounds and two hanging logos: each clip's render hands it to the fetch stage.
      ...[0, 1, 2].map((i) => post(A(), { webhook: receiverA.url, clips: [{ ...clip(i), background: url(`bg-${i}.mp4`) }] })),
      ...[3, 4].map((i) => post(A(), { webhook: receiverA.url, clips: [clip(i)], logo: { url: url(`logo-${i}.png`) } })),
      // Two hanging music beds under voices: their assemblies hand them to the fetch stage.
      ...[5, 6].map((i) => post(A(), { webhook: receiverA.url, create_video: false, clips: [clip(i)], music: { url: url(`music-${i}.mp3`) } })),
    ]);
    const busy = await videoOfB("Hello from account B, while account A's media hangs.");

    // B's wait behind A's work is at most one clip of A's rendering when B's arrives.
    const oneClip = Math.max(alone.renderSeconds, busy.renderSeconds);
    const bound = 2 * alone.seconds + oneClip;
    console.log(
      `fairness (waiting media): B alone ${alone.seconds.toFixed(1)} s, B behind A's 7 hanging downloads ${busy.seconds.toFixed(1)} s, bound ${bound.toFixed(1)} s`,
    );
    expect(busy.seconds).toBeLessThanOrEqual(bound);
    // A's videos fail by name once the pace gives each download up (no byte within 5 s), not after 30 s.
    const codes = [];
    for (const id of ofA) codes.push((await ended(A(), id, 240_000)).error?.code);
    expect(codes).toEqual([
      'background_timeout',
      'background_timeout',
      'background_timeout',
      'logo_timeout',
      'logo_timeout',
      'music_timeout',
      'music_timeout',
    ]);
    // Every one of A's files was asked for, each once: the failures are the pace's, not a refusal before fetching.
    expect(hanging.requests.map((r) => r.url).sort()).toEqual([
      '/bg-0.mp4',
      '/bg-1.mp4',
      '/bg-2.mp4',
      '/logo-3.png',
      '/logo-4.png',
      '/music-5.mp3',
      '/music-6.mp3',
    ]);
  }, 600_000);
});
