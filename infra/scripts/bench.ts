/**
 * `npm run bench`: renders a ~60-second single-clip 720p video over a 720p background video on the local
 * runtime (the real API, queue, render function, assembly and webhook), then, in the same process once the
 * service is stopped, a bare ffmpeg encode of that background (libx264, the same preset and CRF, length, size
 * and binary), and prints the render time and its ratio to the bare encode. Target: at most 1.5.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FRAME } from '../../functions/render/engine/index.ts';
import { AUDIO_ENCODE_ARGS, VIDEO_ENCODE_ARGS } from '../../functions/media/formats.ts';
import { runFfmpeg } from '../../functions/media/media.ts';
import { createLog } from '../local/log.ts';
import { startLocalRuntime } from '../local/runtime.ts';
import { startFileServer } from './support/file-server.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';
import { makeSampleBackground } from './make-sample-background.ts';
import { BENCH_TEXT, cpuSeconds } from './bench-support.ts';



async function main() {
  const root = resolve(import.meta.dirname, '../..');
  const background = join(root, '.local', 'samples', 'background-60s.mp4');
  if (!existsSync(background)) {
    console.log('making the 60 s 720p background once (cached in .local/samples) ...');
    await makeSampleBackground(background, { seconds: 60 });
  }
  const work = mkdtempSync(join(tmpdir(), 'vidbot-bench-'));
  const files = await startFileServer({ '/background.mp4': background });
  const runtime = await startLocalRuntime({ port: 0, dataDir: join(work, 'data'), logLevel: 'warn', functionLogLevel: 'WARN', log: createLog('warn') });
  const receiver = await startWebhookReceiver(runtime.devTenant!.webhookSecret);
  const auth = { Authorization: `Bearer ${runtime.devTenant!.apiKey}` };
  let clip: { duration_seconds: number; render_seconds: number };
  let endToEnd: number;
  let serviceCpu: number;
  try {
    // Warm the functions (cold starts compile TypeScript locally; on Lambda they are bundles).
    await fetch(`${runtime.url}/v1/bot`, { headers: auth });
    const cpu0 = cpuSeconds();
    const t0 = performance.now();
    const response = await fetch(`${runtime.url}/v1/bot`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: receiver.url,
        clips: [{ bot_uid: 'bot_ava', text: BENCH_TEXT, bot_position: 'bottom-right', background: `${files.base}/background.mp4`, background_volume: 0.2, transitions: 'fade_in fade_out' }],
      }),
    });
    const { video_id } = (await response.json()) as { video_id: string };
    if (response.status !== 202) throw new Error(`create answered ${response.status}`);
    await receiver.waitForDelivered(1, 600_000);
    endToEnd = (performance.now() - t0) / 1000;
    serviceCpu = cpuSeconds() - cpu0;
    const video = (await (await fetch(`${runtime.url}/v1/video/${video_id}`, { headers: auth })).json()) as any;
    if (video.status !== 'completed') throw new Error(`video ${video.status}: ${JSON.stringify(video.error)}`);
    clip = video.clips[0];
  } finally {
    await receiver.stop();
    await runtime.stop();
    await files.stop();
  }

  // The baseline, with the service stopped: the same background, length, encoder settings and binary.
  const cpu1 = cpuSeconds();
  const t1 = performance.now();
  await runFfmpeg([
    '-y', '-stream_loop', '-1', '-i', background,
    ...VIDEO_ENCODE_ARGS, '-r', String(FRAME.fps), ...AUDIO_ENCODE_ARGS,
    '-t', String(clip.duration_seconds), '-movflags', '+faststart', join(work, 'bare.mp4'),
  ], { budgetSeconds: 900 });
  const bare = (performance.now() - t1) / 1000;
  const bareCpu = cpuSeconds() - cpu1;
  rmSync(work, { recursive: true, force: true });

  const row = (label: string, value: string) => console.log(`${label.padEnd(54)}${value}`);
  console.log('');
  row('clip length (720p, 30 fps, over a 720p background)', `${clip.duration_seconds.toFixed(1)} s`);
  row('render of the clip (render function, all in)', `${clip.render_seconds.toFixed(2)} s`);
  row('bare ffmpeg encode (libx264, same settings)', `${bare.toFixed(2)} s`);
  row('ratio render / bare encode (target <= 1.5)', `${(clip.render_seconds / bare).toFixed(2)}`);
  row('create -> signed webhook received', `${endToEnd.toFixed(2)} s (ratio ${(endToEnd / bare).toFixed(2)})`);
  row('CPU: whole service for the video / bare', `${serviceCpu.toFixed(1)} s / ${bareCpu.toFixed(1)} s (ratio ${(serviceCpu / bareCpu).toFixed(2)})`);
  console.log(`\nencoder: ${VIDEO_ENCODE_ARGS.join(' ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
