/**
 * A render killed mid-job (ffmpeg SIGKILLed, as the kernel's OOM killer would on Lambda) is retried by the
 * render queue and the video completes; its webhook arrives exactly once, signed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, sleep, startReceiver } from '../../support/reliability.ts';

/** Pids of ffmpeg processes whose arguments mention the video's render work dir (render-<videoId>-<clip>-...). */
function ffmpegPidsFor(videoId: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    if (argv[0]?.endsWith('ffmpeg') && argv.some((a) => a.includes(`render-${videoId}-`))) pids.push(Number(entry));
  }
  return pids;
}

let app: TestRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  // Render visibility 960 s x 0.015 = 14 s: the killed attempt's message comes back after its 10-s backoff, or after
  // 14 s if the attempt outlived its visibility (a loaded machine) and could not hide it.
  app = await startTestRuntime({ visibilityScale: 0.015 });
  receiver = await startReceiver(app.webhookSecret);
}, 60_000);
afterAll(async () => {
  await receiver?.stop();
  await app?.stop();
});

describe('a render killed mid-job', () => {
  it('is retried, the video completes, and the webhook arrives exactly once', async () => {
    const api = client(app);
    const videoId = await api.createOk({
      webhook: receiver.url,
      create_video: true,
      clips: [
        { bot_uid: 'bot_leo', text: `Render kill check ${Date.now()}: this sentence keeps ffmpeg busy for a few seconds, long enough to be caught.` },
      ],
    });

    // Watch for the render's ffmpeg and kill it once it has been encoding for a moment.
    const seen = new Set<number>();
    let killed: number | undefined;
    const watchUntil = Date.now() + 60_000;
    while (killed === undefined && Date.now() < watchUntil) {
      const pids = ffmpegPidsFor(videoId);
      pids.forEach((p) => seen.add(p));
      if (pids.length) {
        await sleep(100);
        try {
          process.kill(pids[0]!, 'SIGKILL');
          killed = pids[0];
        } catch {
          // It ended meanwhile (a fast machine): the video has rendered, and the check below says so.
        }
      } else if (!['queued', 'rendering'].includes((await api.video(videoId)).status)) break;
      else await sleep(20);
    }
    expect(killed, 'saw the render ffmpeg and killed it before it finished').toBeDefined();

    // The retry runs a new ffmpeg for the same clip.
    let video = await api.video(videoId);
    const until = Date.now() + 90_000;
    while (Date.now() < until) {
      ffmpegPidsFor(videoId).forEach((p) => seen.add(p));
      video = await api.video(videoId);
      if (video.status === 'completed' || video.status === 'failed') break;
      await sleep(50);
    }
    expect(video.error).toBeNull();
    expect(video.status).toBe('completed');
    expect([...seen].filter((p) => p !== killed).length, 'a second render ran after the kill').toBeGreaterThan(0);

    const delivered = await api.waitForVideo(videoId, (v) => v.webhook.state === 'delivered', 30_000, 'the webhook delivery');
    // Several notify visibility cycles (1 s here) later, still one delivery.
    await sleep(6_000);
    const hits = receiver.hitsFor(videoId);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.verified).toBe(true);
    expect(JSON.parse(hits[0]!.body)).toMatchObject({ type: 'video.completed', data: { video_id: videoId, status: 'completed' } });
    expect(delivered.webhook.attempts).toHaveLength(1);
    expect((await api.video(videoId)).webhook.attempts).toHaveLength(1);
  }, 150_000);
});
