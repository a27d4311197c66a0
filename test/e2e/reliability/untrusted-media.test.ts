/**
 * The security review's reproductions, through the API of the local runtime as an attacker with a key would
 * send them: each now ends within a minute with a cleanly failed video (or a 400), in our words, with nothing
 * left running, queued or dead-lettered. A render the watchdog stops is a permanent failure, not retried, and
 * not re-queued when the runtime restarts. An MPEG-TS background renders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { writeDeclaredSizePng, writeHlsPolyglot, writeHugePng, writeSample } from '../../support/hostile-media.ts';
import { probeFile } from '../../support/media.ts';
import { assertPublicMessage } from '../../support/public-errors.ts';
import { client, eventually, isTerminal, type PublicVideo, queueDepth, sleep, startReceiver } from '../../support/reliability.ts';

/** Pids of ffmpeg processes working for this video (their arguments name its render work dir). */
function ffmpegPidsFor(videoId: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('ffmpeg') && argv.some((a) => a.includes(videoId))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

let files: string;
let server: Awaited<ReturnType<typeof startFileServer>>;

beforeAll(async () => {
  files = await mkdtemp(join(tmpdir(), 'vidbot-hostile-'));
  const secret = await writeSample(files, 'mp4', '0xff0000');
  const ps = await writeSample(files, 'mpg');
  server = await startFileServer({
    '/bomb.png': writeDeclaredSizePng(join(files, 'bomb.png'), 30000, 30000),
    '/huge.png': await writeHugePng(join(files, 'huge.png'), 16000, 16000),
    '/playlist.mpg': await writeHlsPolyglot(join(files, 'polyglot'), secret, ps),
    '/news.ts': await writeSample(files, 'ts', '0x30a050'),
    '/heavy.mp4': secret,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await rm(files, { recursive: true, force: true });
});

/** Checks what every failed reproduction must leave: our words, and nothing running, queued or dead-lettered. */
async function expectCleanFailure(app: TestRuntime, video: PublicVideo, code: string) {
  expect(video.status).toBe('failed');
  expect(video.error?.code).toBe(code);
  assertPublicMessage(video.error?.message, `video ${video.video_id}`);
  expect(ffmpegPidsFor(video.video_id)).toEqual([]);
  for (const queue of ['render', 'assemble']) {
    // The job records the failure, then its message is deleted as the invocation returns: a moment later.
    await eventually(async () => ((await queueDepth(app, queue, 'queue')) === 0 ? true : undefined), 10_000, `${queue} queue empty`);
    expect(await queueDepth(app, queue, 'dlq'), `${queue} DLQ`).toBe(0);
  }
}

describe('hostile backgrounds through the API', () => {
  let app: TestRuntime;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    app = await startTestRuntime();
    receiver = await startReceiver(app.webhookSecret);
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop(); // fails if any webhook's error message carried internals
    await app?.stop();
  });

  const cases = [
    {
      name: 'a 66-byte PNG declaring 30000x30000',
      path: '/bomb.png',
      message: /clip 0: the background is 30000x30000 pixels; at most 8192 pixels on either side are accepted/,
    },
    { name: 'a real 16000x16000 PNG', path: '/huge.png', message: /clip 0: the background is 16000x16000 pixels/ },
    {
      name: 'an HLS playlist with MPEG-PS appended, naming a local file',
      path: '/playlist.mpg',
      message: /clip 0: the background is not a video or picture in an accepted format/,
    },
  ];
  for (const { name, path, message } of cases) {
    it(`${name}: a clean background_invalid failure within a minute, also in the webhook`, async () => {
      const api = client(app);
      const started = Date.now();
      const videoId = await api.createOk({
        webhook: receiver.url,
        clips: [{ bot_uid: 'bot_ava', text: 'Hello.', background: `${server.base}${path}` }],
      });
      const video = await api.waitForVideo(videoId, isTerminal, 60_000);
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(video.error?.message).toMatch(message);
      await expectCleanFailure(app, video, 'background_invalid');
      const hook = await api.waitForVideo(videoId, (v) => v.webhook.state === 'delivered', 30_000, 'the failure webhook');
      expect(hook.webhook.state).toBe('delivered');
      const body = JSON.parse(receiver.hitsFor(videoId)[0]!.body) as { type: string; data: { error: { code: string; message: string } } };
      expect(body.type).toBe('video.failed');
      expect(body.data.error.message).toBe(video.error?.message);
    }, 90_000);
  }

  it('ten such clips in one request fail the video once, quickly, with every clip stood down', async () => {
    const api = client(app);
    const started = Date.now();
    const clips = Array.from({ length: 10 }, (_, i) => ({ bot_uid: 'bot_leo', text: `Clip ${i}.`, background: `${server.base}/bomb.png` }));
    const videoId = await api.createOk({ webhook: receiver.url, clips });
    const video = await api.waitForVideo(videoId, isTerminal, 60_000);
    // The other clips' messages are consumed and stand down (the video has ended), none retried.
    await eventually(async () => ((await queueDepth(app, 'render', 'queue')) === 0 ? true : undefined), 60_000, 'the render queue to drain');
    await expectCleanFailure(app, video, 'background_invalid');
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 90_000);

  it('an MPEG-TS background renders: the video completes and plays', async () => {
    const api = client(app);
    const videoId = await api.createOk({
      webhook: receiver.url,
      clips: [{ bot_uid: 'bot_maya', text: 'This background came as MPEG-TS.', background: `${server.base}/news.ts` }],
    });
    const video = await api.waitForVideo(videoId, isTerminal, 90_000);
    expect(video.status, JSON.stringify(video.error)).toBe('completed');
    const download = await api.fetch(`/v1/video/${videoId}/download`, { redirect: 'follow' });
    expect(download.status).toBe(200);
    const path = join(files, `${videoId}.mp4`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, Buffer.from(await download.arrayBuffer()));
    const probed = await probeFile(path);
    expect(probed.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
  }, 120_000);

  it('text with nothing to say (zero-width characters only) is a 400 naming the clip', async () => {
    const { status, body } = await client(app).create({
      webhook: receiver.url,
      clips: [
        { bot_uid: 'bot_ava', text: 'Hello.' },
        { bot_uid: 'bot_ava', text: '\u200b\u200d\ufeff' },
      ],
    });
    expect(status).toBe(400);
    expect(body.error?.details?.map((d) => d.path)).toContain('clips[1].text');
  });
});

describe('a render the watchdog stops', () => {
  it('fails its clip for good (render_timeout, one attempt), and a restart does not queue it again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vidbot-watchdog-'));
    // Budgets at 1/500: a render of a few seconds gets about 0.15 s, and is stopped.
    let app = await startTestRuntime({ dataDir, functionEnvironment: { RENDER_BUDGET_SCALE: '0.002' } });
    let videoId = '';
    try {
      const api = client(app);
      videoId = await api.createOk({
        webhook: 'https://hooks.example.invalid/x',
        clips: [{ bot_uid: 'bot_otto', text: 'This render is stopped by its watchdog.', background: `${server.base}/heavy.mp4` }],
      });
      const video = await api.waitForVideo(videoId, isTerminal, 60_000);
      expect(video.error?.message).toMatch(/^clip 0: rendering took longer than its \d+(\.\d+)? s budget and was stopped/);
      await expectCleanFailure(app, video, 'render_timeout');
    } finally {
      await app.stop();
    }

    // The same data, a normal budget: the failed video stays failed, and nothing renders for it.
    app = await startTestRuntime({ dataDir });
    try {
      await sleep(3000);
      const video = await client(app).video(videoId);
      expect(video.status).toBe('failed');
      expect(video.error?.code).toBe('render_timeout');
      expect(await queueDepth(app, 'render', 'queue')).toBe(0);
      expect(ffmpegPidsFor(videoId)).toEqual([]);
    } finally {
      await app.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
