/**
 * The SDK and the CLI against the local runtime, as a new user runs them: the README's first video with
 * `vidbot create … --wait --out`, a TypeScript program making a video, a batch from a CSV and verifying a
 * webhook, and a test key's video (360p, marked TEST, `test: true` in its record and its event).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKey } from '#infra/scripts/keys.ts';
import { Vidbot, verifyWebhook } from '../../sdk/typescript/src/index.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';
import { eventually, probeFile } from '../support/media.ts';
import { keyTarget } from '../support/reliability.ts';
import { frameRgb } from '../support/render-media.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const exec = promisify(execFile);
let app: TestRuntime;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vidbot-sdk-e2e-'));
  app = await startTestRuntime();
  receiver = await startWebhookReceiver(app.webhookSecret);
}, 120_000);
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `npx vidbot …` as a user runs it: the package's bin, the key in the environment, a config file of its own. */
const vidbot = (args: string[], env: Record<string, string> = {}) =>
  exec(process.execPath, ['sdk/typescript/bin/vidbot.mjs', ...args], {
    env: { ...process.env, VIDBOT_CONFIG: join(work, 'config.json'), VIDBOT_BASE_URL: app.baseUrl, VIDBOT_API_KEY: app.apiKey, ...env },
  });

it("the README's first video: vidbot create --bot bot_ava --text Hello --wait --out hello.mp4", async () => {
  const out = join(work, 'hello.mp4');
  const { stdout, stderr } = await vidbot(['create', '--bot', 'bot_ava', '--text', 'Hello', '--wait', '--out', out]);
  expect(stderr).toMatch(/clip 0 \[#+\] rendered/);
  expect(stdout).toMatch(/^vid_\S+ completed 16:9 720p/);
  const probed = await probeFile(out);
  expect(probed.streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 1280, height: 720 });
  expect(Number(probed.format.duration)).toBeGreaterThan(0.3);
}, 120_000);

it('a TypeScript program: a video, a batch from a CSV, and a verified webhook', async () => {
  const client = new Vidbot({ baseUrl: app.baseUrl, apiKey: app.apiKey });
  const created = await client.createVideo({ webhook: receiver.url, clips: [{ bot_uid: 'bot_ava', text: 'Hi from the SDK.' }] });
  const video = await client.waitForVideo(created.video_id, { intervalMs: 500 });
  expect(video.output?.download_url).toBeTruthy();
  const { bytes } = await client.download(video.video_id);
  expect(Buffer.from(bytes.subarray(4, 8)).toString('latin1')).toBe('ftyp');

  await client.putTemplate('welcome', { name: 'Welcome', clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}!' }] });
  const batch = await client.sendBatch('welcome', { webhook: receiver.url, rows: 'first_name\nAda\nGrace\n' });
  const done = await client.waitForBatch(batch.batch_id, { intervalMs: 500, timeoutMs: 110_000 });
  expect(done.counts).toMatchObject({ completed: 2, failed: 0 });

  await receiver.waitForDelivered(2, 30_000);
  const delivery = receiver.delivered().find((r) => r.event?.data.video_id === video.video_id)!;
  const event = verifyWebhook(delivery.body, delivery.headers as Record<string, string>, app.webhookSecret);
  expect(event).toMatchObject({ type: 'video.completed', data: { video_id: video.video_id, test: false } });
}, 180_000);

it("a test key's video: 360p, marked TEST, test: true in its record and event, outside the live account's limits", async () => {
  const target = keyTarget(app);
  const issued = await createKey(target, { name: 'ci', accountId: app.tenantId, test: true });
  expect(issued.record.test).toBe(true);
  expect(issued.account.tenantId).not.toBe(app.tenantId);
  const testClient = new Vidbot({ baseUrl: app.baseUrl, apiKey: issued.apiKey });
  const live = new Vidbot({ baseUrl: app.baseUrl, apiKey: app.apiKey });
  expect(await testClient.account()).toMatchObject({ test: true, live_account_id: app.tenantId });
  const liveBefore = (await live.account()) as { videos: { total: number } };

  // The test key signs with its own secret: its receiver verifies with that one.
  const testReceiver = await startWebhookReceiver(issued.webhookSecret);
  const request = { webhook: testReceiver.url, clips: [{ bot_uid: 'bot_ava', text: 'This is a test video.' }] };
  const created = await testClient.createVideo(request);
  expect(created.test).toBe(true);
  const video = await testClient.waitForVideo(created.video_id, { intervalMs: 500 });
  expect(video).toMatchObject({ test: true, resolution: '360p', aspect_ratio: '16:9' });
  const file = join(work, 'test-key.mp4');
  writeFileSync(file, (await testClient.download(video.video_id)).bytes);
  expect((await probeFile(file)).streams.find((s) => s.codec_type === 'video')).toMatchObject({ width: 640, height: 360 });

  // The live account's figures do not move.
  expect(((await live.account()) as { videos: { total: number } }).videos.total).toBe(liveBefore.videos.total);
  const delivered = await eventually(
    async () => testReceiver.delivered().find((r) => r.event?.data.video_id === video.video_id),
    30_000,
    'its event',
  );
  expect(delivered.event?.data.test).toBe(true);
  await testReceiver.stop();

  // The mark: the same request by the live key, scaled to 360p, differs from the test video where TEST is drawn.
  const liveVideo = await live.waitForVideo((await live.createVideo({ ...request, webhook: receiver.url })).video_id, { intervalMs: 500 });
  const liveFile = join(work, 'live.mp4');
  writeFileSync(liveFile, (await live.download(liveVideo.video_id)).bytes);
  if (process.env.VIDBOT_KEEP_FRAMES)
    for (const f of [file, liveFile]) writeFileSync(join(process.env.VIDBOT_KEEP_FRAMES, f.split('/').pop()!), readFileSync(f));
  const [testFrame, liveFrame] = await Promise.all([frameRgb(file, 1, 640, 360), frameRgb(liveFile, 1)]);
  // Where "TEST" is drawn (top-left of a 640x360 frame) and a patch of background; measured 31 and 1.0.
  const mark = meanDifference(testFrame, halve(liveFrame), { x: 40, y: 25, w: 75, h: 35 });
  const elsewhere = meanDifference(testFrame, halve(liveFrame), { x: 220, y: 150, w: 200, h: 90 });
  expect(mark).toBeGreaterThan(15);
  expect(elsewhere).toBeLessThan(4);
  if (process.env.VIDBOT_KEEP_FRAMES)
    for (const f of [file, liveFile]) writeFileSync(join(process.env.VIDBOT_KEEP_FRAMES, f.split('/').pop()!), readFileSync(f));
}, 240_000);

/** A 1280x720 RGB frame averaged 2x2 down to 640x360. */
function halve(frame: Buffer): Buffer {
  const out = Buffer.alloc(640 * 360 * 3);
  for (let y = 0; y < 360; y++)
    for (let x = 0; x < 640; x++)
      for (let c = 0; c < 3; c++) {
        const at = (yy: number, xx: number) => frame[(yy * 1280 + xx) * 3 + c]!;
        out[(y * 640 + x) * 3 + c] = Math.round((at(2 * y, 2 * x) + at(2 * y, 2 * x + 1) + at(2 * y + 1, 2 * x) + at(2 * y + 1, 2 * x + 1)) / 4);
      }
  return out;
}

function meanDifference(a: Buffer, b: Buffer, box: { x: number; y: number; w: number; h: number }): number {
  let sum = 0;
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++) for (let c = 0; c < 3; c++) sum += Math.abs(a[(y * 640 + x) * 3 + c]! - b[(y * 640 + x) * 3 + c]!);
  return sum / (box.w * box.h * 3);
}
