/**
 * `npm run bench:engine`: the cost of rendering a ~60 s clip over a 60 s 720p background, against a bare
 * ffmpeg libx264 encode of that same background (same binary, preset, CRF, size and length), in one process.
 * The target is a ratio of at most 1.5.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { FRAME, renderClip } from '../../functions/render/engine/index.ts';
import { AUDIO_ENCODE_ARGS, VIDEO_ENCODE_ARGS } from '../../functions/media/formats.ts';
import { inspectBackground, probeDuration } from '../../functions/media/media.ts';
import { runFfmpeg } from '../../functions/media/media.ts';
import { EspeakSpeechEngine } from '../../functions/render/speech/index.ts';
import { makeSampleBackground } from './make-sample-background.ts';
import { BENCH_TEXT, cpuSeconds } from './bench-support.ts';



async function main() {
  const root = mkdtempSync(join(tmpdir(), 'vidbot-bench-'));
  try {
    const cached = '.local/samples/background-60s.mp4';
    mkdirSync('.local/samples', { recursive: true });
    let started = Date.now();
    if (!existsSync(cached)) await makeSampleBackground(cached, { seconds: 60 });
    console.log(`background: ${cached} (${(Date.now() - started) / 1000} s to prepare)`);

    const bot = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
    const workDir = mkdtempSync(join(root, 'clip-'));
    started = Date.now();
    let cpu = cpuSeconds();
    const clip = await renderClip({
      bot,
      text: BENCH_TEXT,
      position: 'bottom-right',
      removeBotBackground: false,
      background: await inspectBackground(cached, workDir),
      backgroundVolume: 0.2,
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      mode: 'video',
      workDir,
      speech: new EspeakSpeechEngine(),
    });
    const renderSeconds = (Date.now() - started) / 1000;
    const renderCpu = cpuSeconds() - cpu;
    const clipSeconds = await probeDuration(clip.path);

    // The baseline: the same background, same length, same encoder settings, nothing else. Run twice (the
    // clip's length is known only after the render) and averaged, to smooth out a busy machine.
    const bare = async () => {
      const t0 = Date.now();
      await runFfmpeg([
        '-y', '-stream_loop', '-1', '-i', cached,
        ...VIDEO_ENCODE_ARGS, '-r', String(FRAME.fps), ...AUDIO_ENCODE_ARGS,
        '-t', String(clipSeconds), '-movflags', '+faststart', join(root, 'bare.mp4'),
      ], { budgetSeconds: 900 });
      return (Date.now() - t0) / 1000;
    };
    cpu = cpuSeconds();
    const bareRuns = [await bare(), await bare()];
    const bareCpu = (cpuSeconds() - cpu) / 2;
    const bareSeconds = (bareRuns[0]! + bareRuns[1]!) / 2;
    console.log(`bare runs:             ${bareRuns.map((s) => s.toFixed(2)).join(' s, ')} s`);

    console.log(`clip length:           ${clipSeconds.toFixed(2)} s`);
    console.log(`renderClip (all in):   ${renderSeconds.toFixed(2)} s`);
    console.log(`bare libx264 encode:   ${bareSeconds.toFixed(2)} s`);
    console.log(`ratio (wall time):     ${(renderSeconds / bareSeconds).toFixed(2)} (target ≤ 1.5)`);
    console.log(`CPU time:              render ${renderCpu.toFixed(2)} s, bare ${bareCpu.toFixed(2)} s, ratio ${(renderCpu / bareCpu).toFixed(2)}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
