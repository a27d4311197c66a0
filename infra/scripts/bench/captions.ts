/**
 * `npx tsx infra/scripts/bench/captions.ts [-- --runs 2]`: what burned captions cost a render. The engine alone
 * (renderClip, no service) renders the benchmark's ~60 s clip over the synthetic background without and with
 * `captions: "burn"`, alternately (plain, burned, plain, burned, …: a shared machine's load drifts, and
 * alternating spreads the drift over both), and prints the mean wall and CPU time of each and the difference.
 * Target: burned captions add at most 10 % to a render.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { BENCH_TEXT, cpuSeconds, loadAverage, syntheticBackground } from './support.ts';

async function main() {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 2;
  const root = mkdtempSync(join(tmpdir(), 'vidbot-bench-captions-'));
  const FRAME = frameSizeOf(DEFAULT_SHAPE);
  const background = await syntheticBackground(
    join(resolve(import.meta.dirname, '../../..'), '.local', 'samples', 'background-testsrc2-60s-1280x720.mp4'),
    FRAME,
  );
  const bot = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
  const speech = new EspeakSpeechEngine();
  const times: Record<'none' | 'burn', { seconds: number; cpu: number }[]> = { none: [], burn: [] };
  let cues = 0;
  try {
    const render = async (captions: 'none' | 'burn') => {
      const workDir = mkdtempSync(join(root, 'clip-'));
      const cpu = cpuSeconds();
      const started = Date.now();
      const clip = await renderClip({
        bot,
        text: BENCH_TEXT,
        position: 'bottom-right',
        removeBotBackground: false,
        background: await inspectBackground(background, workDir),
        backgroundVolume: 0.2,
        transitions: { entry: 'fade_in', exit: 'fade_out' },
        mode: 'video',
        frame: FRAME,
        voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
        workDir,
        speech,
        captions,
      });
      const result = { seconds: (Date.now() - started) / 1000, cpu: cpuSeconds() - cpu };
      if (captions === 'burn' && !clip.captionsBurned) throw new Error('the captions were not burned');
      cues = clip.cues.length;
      rmSync(workDir, { recursive: true, force: true });
      console.log(`${captions.padEnd(5)} ${result.seconds.toFixed(2)} s wall, ${result.cpu.toFixed(2)} s CPU (load ${loadAverage()})`);
      return result;
    };
    await render('none'); // warm-up: the wasm compiled, the sprites read, the file cache filled
    for (let i = 0; i < runs; i++) {
      times.none.push(await render('none'));
      times.burn.push(await render('burn'));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const mean = (xs: { seconds: number; cpu: number }[], key: 'seconds' | 'cpu') => xs.reduce((n, x) => n + x[key], 0) / xs.length;
  const [plain, burned] = [mean(times.none, 'seconds'), mean(times.burn, 'seconds')];
  const [plainCpu, burnedCpu] = [mean(times.none, 'cpu'), mean(times.burn, 'cpu')];
  console.log('');
  console.log(`clip: ${BENCH_TEXT.length} characters, ${cues} cues, 1280x720, bottom-right, fade in and out; ${runs} run(s) each, alternating`);
  console.log(`render without captions:  ${plain.toFixed(2)} s wall, ${plainCpu.toFixed(2)} s CPU`);
  console.log(`render with burned ones:  ${burned.toFixed(2)} s wall, ${burnedCpu.toFixed(2)} s CPU`);
  console.log(
    `BURNED CAPTIONS ADD:      ${(((burned - plain) / plain) * 100).toFixed(1)} % wall, ${(((burnedCpu - plainCpu) / plainCpu) * 100).toFixed(1)} % CPU (target <= 10 %)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
