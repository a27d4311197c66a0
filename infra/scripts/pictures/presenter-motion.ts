/**
 * `npx tsx infra/scripts/pictures/presenter-motion.ts`: the docs' pictures of the presenters' motion (docs/presenters.md).
 * For bot_ava (built in), a bot prepared from the test portrait (test/fixtures/prepare/portrait.jpg) and a drawn bot
 * (bot_ava's layers given as a caller's drawings, with its mouth shapes), a clip is
 * rendered by the engine (renderClip, espeak-ng, 16:9 720p, `large`, centred on its card) saying two phrases with a
 * pause between them; then, cropped to the bot: docs/presenter-motion-<kind>.png, a contact sheet (a frame every
 * 0.3 s, its time under it), and docs/presenter-motion-<kind>.mp4, the clip itself (small, with its sound).
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import { frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { buildDrawnLook } from '../../../functions/prepare/drawn-look.ts';
import { fontFilePath, THEME_FONT_FILES } from '../../../functions/render/engine/fonts.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { layoutFor } from '../../../functions/render/engine/layout.ts';
import { lookManifest } from '../../../functions/render/engine/sprites.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { writeTestPortraitLook } from './sheet-setup.ts';

const TEXT = 'Hello, and welcome back. Today we look at three things. <break time="1.2s"/> First, the numbers; then, what they mean for you.';
const FRAME = frameSizeOf({ aspectRatio: '16:9', resolution: '720p' });
const EVERY = 0.3;
const COLUMNS = 8;

/** A caller's drawing made of bot_ava's layers (its back hair, body and one head frame flattened into one PNG). */
function drawing(frame: string): Promise<Buffer> {
  const dir = resolve('functions/render/bots/ava');
  const m = lookManifest('ava');
  const density = m.density ?? 1;
  return sharp(join(dir, m.back))
    .composite([{ input: join(dir, m.body) }, { input: join(dir, m.head.frames[frame]!), left: m.head.x * density, top: m.head.y * density }])
    .png()
    .toBuffer();
}

/** A drawn bot as a caller would make it: closed and open mouths, closed eyes, and the three mouth shapes. */
async function drawnLook() {
  return buildDrawnLook({
    mouthClosed: await drawing('m0-eo'),
    mouthOpen: await drawing('m4-eo'),
    eyesClosed: await drawing('m0-ec'),
    shapes: { round: await drawing('r2-eo'), wide: await drawing('w2-eo'), fv: await drawing('fv-eo') },
  });
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), 'vidbot-motion-'));
  try {
    const ava = BUILT_IN_BOTS.find((b) => b.uid === 'bot_ava')!;
    const photoDir = await writeTestPortraitLook(work);
    const drawnDir = join(work, 'drawn-look');
    mkdirSync(drawnDir);
    for (const [file, bytes] of (await drawnLook()).files) writeFileSync(join(drawnDir, file), bytes);
    const kinds: [string, Bot, string | undefined][] = [
      ['built-in', ava, undefined],
      ['photo', { ...ava, uid: 'photo', look: 'photo' }, photoDir],
      ['drawn', { ...ava, uid: 'drawn', look: 'drawn' }, drawnDir],
    ];
    for (const [kind, bot, lookDirectory] of kinds) {
      const workDir = mkdtempSync(join(work, 'clip-'));
      const clip = await renderClip({
        bot,
        lookDirectory,
        voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
        text: TEXT,
        position: 'center',
        botSize: 'large',
        removeBotBackground: false,
        backgroundVolume: 0,
        transitions: {},
        frame: FRAME,
        mode: 'video',
        workDir,
        speech: new EspeakSpeechEngine(),
      });
      // The bot's card, its upper two thirds (the head and shoulders).
      const box = layoutFor(FRAME, 'center', lookManifest(bot.look, lookDirectory), { size: 'large' });
      const crop = `crop=${box.width}:${Math.round(box.height * 0.7)}:${box.x}:${box.y}`;
      const sheet = join(work, `${kind}.png`);
      const frames = Math.ceil(clip.durationSeconds / EVERY);
      const rows = Math.ceil(frames / COLUMNS);
      await runFfmpeg(
        [
          '-y',
          '-i',
          clip.path,
          '-vf',
          `fps=1/${EVERY},${crop},scale=150:-2,drawtext=fontfile=${fontFilePath(THEME_FONT_FILES.inter)}:text='%{pts\\:flt}':x=4:y=h-16:fontsize=12:fontcolor=white:box=1:boxcolor=black@0.5,tile=${COLUMNS}x${rows}:padding=4:color=white`,
          '-frames:v',
          '1',
          sheet,
        ],
        { budgetSeconds: 120 },
      );
      const png = resolve(`docs/presenter-motion-${kind}.png`);
      await sharp(sheet).png({ palette: true, quality: 90, compressionLevel: 9 }).toFile(png);
      const mp4 = resolve(`docs/presenter-motion-${kind}.mp4`);
      await runFfmpeg(
        ['-y', '-i', clip.path, '-vf', `${crop},scale=360:-2`, '-c:v', 'libx264', '-preset', 'slow', '-crf', '27', '-pix_fmt', 'yuv420p'].concat([
          '-c:a',
          'aac',
          '-b:a',
          '48k',
          '-movflags',
          '+faststart',
          mp4,
        ]),
        { budgetSeconds: 120 },
      );
      console.log(`${kind}: ${png} (${statSync(png).size} B), ${mp4} (${statSync(mp4).size} B), ${clip.durationSeconds} s`);
      rmSync(workDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
