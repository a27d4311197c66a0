/**
 * `npm run bench:engine`: the engine alone (no service): renderClip of the benchmark's ~60 s clip over the
 * synthetic background, against a bare libx264 encode of the synthetic source (same binary, preset, CRF, size,
 * frame rate and length), in one process. `-- --shape 9:16@1080p` renders another shape (default 16:9@720p).
 * See bench.ts for the service's figure.
 * `npm run bench:engine -- --photo <image>`: the same with a bot prepared from that photo (prepared first, not
 * timed), to compare a photo bot's render with a built-in one's.
 * `npm run bench:engine -- --logo`: the same with a logo (a 512x256 PNG with transparency, made first, not timed)
 * drawn top-right at 12 % of the width and 90 % opacity, to measure what a logo costs.
 * `--size small|medium|large|full` draws the bot at that size (default medium); `--no-card` without its card;
 * `--position <bot_position>` places it (default bottom-right). `--no-background` renders without the background
 * (the default backdrop, or a `full` presenter's card carried to the frame's edges): `--no-background --size full
 * --position bottom-center` is the clip a request without background, size or position gets.
 * `npm run bench:engine -- --overlays`: the same clip as a full scene: a title (0-4 s) and two lower thirds
 * (6-12 s and 30-36 s), drawn by the engine's text overlays (target: at most 1.25x the bare encode).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BUILT_IN_BOTS } from '#domain/bot';
import { BOT_POSITIONS, BOT_SIZES, type BotPosition, type BotSize } from '#domain/choices';
import type { TextOverlay } from '#domain/overlays';
import { describeShape, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { inspectImage } from '../../../functions/media/image-media.ts';
import { probeDuration } from '../../../functions/media/probe.ts';
import { buildPhotoLook } from '../../../functions/prepare/photo-look.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { argument, BENCH_TEXT, bareEncode, cpuSeconds, loadAverage, parseShapes, syntheticBackground } from './support.ts';

async function main() {
  const root = mkdtempSync(join(tmpdir(), 'vidbot-bench-'));
  try {
    const shape = parseShapes(argument('shape') ?? '16:9@720p')[0]!;
    const frame = frameSizeOf(shape);
    const size = (argument('size') ?? 'medium') as BotSize;
    if (!BOT_SIZES.includes(size)) throw new Error(`--size: one of ${BOT_SIZES.join(', ')}`);
    const removeBotBackground = process.argv.includes('--no-card');
    const position = (argument('position') ?? 'bottom-right') as BotPosition;
    if (!BOT_POSITIONS.includes(position)) throw new Error(`--position: one of ${BOT_POSITIONS.join(', ')}`);
    const withBackground = !process.argv.includes('--no-background');
    const cached = await syntheticBackground(`.local/samples/background-testsrc2-60s-${frame.width}x${frame.height}.mp4`, frame);
    const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
    const photo = process.argv.indexOf('--photo');
    let lookDirectory: string | undefined;
    if (photo > 0) {
      lookDirectory = mkdtempSync(join(root, 'look-'));
      const look = await buildPhotoLook(readFileSync(process.argv[photo + 1]!));
      for (const [name, bytes] of look.files) writeFileSync(join(lookDirectory, name), bytes);
    }
    const bot = lookDirectory ? { ...ava, uid: 'photo_bot', look: 'photo' } : ava;
    const overlays: TextOverlay[] | undefined = process.argv.includes('--overlays')
      ? [
          { type: 'text', style: 'title', text: 'The quarterly review', start: 0, end: 4, position: 'center' },
          { type: 'text', style: 'lower_third', text: 'Ava Martin\nHead of product', start: 6, end: 12, position: 'bottom-left' },
          { type: 'text', style: 'lower_third', text: 'Leo Durand\nFinance', start: 30, end: 36, position: 'bottom-left' },
        ]
      : undefined;
    const workDir = mkdtempSync(join(root, 'clip-'));
    const logo = process.argv.includes('--logo') ? await benchLogo(join(root, 'logo.png')) : undefined;
    const started = Date.now();
    const cpu = cpuSeconds();
    const clip = await renderClip({
      bot,
      lookDirectory,
      text: BENCH_TEXT,
      voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
      position,
      botSize: size,
      removeBotBackground,
      ...(withBackground && { background: await inspectBackground(cached, workDir) }),
      backgroundVolume: 0.2,
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      imageLayers: logo ? [{ image: await inspectImage(logo), position: 'top-right', size: 0.12, opacity: 0.9 }] : [],
      frame,
      mode: 'video',
      workDir,
      speech: new EspeakSpeechEngine(),
      ...(overlays && { overlays }),
    });
    const renderSeconds = (Date.now() - started) / 1000;
    const renderCpu = cpuSeconds() - cpu;
    const clipSeconds = await probeDuration(clip.path);

    // The baseline: a bare encode of the synthetic source, same length and encoder settings. Run twice (the
    // clip's length is known only after the render) and averaged, to smooth out a busy machine.
    const runs = [await bareEncode(clipSeconds, join(root, 'bare.mp4'), frame), await bareEncode(clipSeconds, join(root, 'bare.mp4'), frame)];
    const bareSeconds = (runs[0]!.seconds + runs[1]!.seconds) / 2;
    const bareCpu = (runs[0]!.cpu + runs[1]!.cpu) / 2;
    const t = clip.timings!;
    console.log(`shape:                 ${describeShape(shape)}`);
    console.log(
      `bot:                   ${lookDirectory ? `from the photo ${process.argv[photo + 1]}` : 'ava (built in)'}, ${size}, ${position}${removeBotBackground ? ', no card' : ''}`,
    );
    console.log(`background:            ${withBackground ? 'the synthetic 60-s background' : 'none'}`);
    console.log(`logo:                  ${logo ? 'a 512x256 PNG with transparency, top-right, 12 % of the width, opacity 0.9' : 'none'}`);
    console.log(`overlays:              ${overlays ? 'a title and two lower thirds' : 'none'}`);
    console.log(`bare runs:             ${runs.map((r) => r.seconds.toFixed(2)).join(' s, ')} s`);
    console.log(`clip length:           ${clipSeconds.toFixed(2)} s`);
    console.log(
      `renderClip (all in):   ${renderSeconds.toFixed(2)} s (speech ${t.speechMs} ms, setup ${t.setupMs} ms, ffmpeg ${t.encodeMs} ms of which drawing ${t.drawMs} ms)`,
    );
    console.log(`bare libx264 encode:   ${bareSeconds.toFixed(2)} s`);
    console.log(`ratio (wall time):     ${(renderSeconds / bareSeconds).toFixed(2)}`);
    console.log(`CPU time:              render ${renderCpu.toFixed(2)} s, bare ${bareCpu.toFixed(2)} s, ratio ${(renderCpu / bareCpu).toFixed(2)}`);
    console.log(`load average:          ${loadAverage()}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A logo as people make them: a coloured badge with soft edges on a transparent ground. */
async function benchLogo(path: string): Promise<string> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="256"><rect x="16" y="16" width="480" height="224" rx="48" fill="#e0402a"/>' +
    '<circle cx="128" cy="128" r="72" fill="#ffffff" fill-opacity="0.85"/></svg>';
  await sharp(Buffer.from(svg)).png().toFile(path);
  return path;
}

await main();
