/**
 * A contact sheet of a video bot (docs/video-bots.md): one frame of the engine's render in each of `small`,
 * `medium` and `large` (16:9 720p, bottom-right, centre) and in 9:16 `full`, side by side at one height; the top row
 * with the recording's own backdrop, the bottom row with `remove_bot_background` over a background video. Written as
 * a PNG, and with --mp4 as a short video of the same eight clips (their first seconds, two rows).
 *
 *   npx tsx infra/scripts/pictures/video-bot-sheet.ts <recording.mp4> [--look <dir>] [--out sheet.png] [--mp4 sheet.mp4]
 *   npx tsx infra/scripts/pictures/video-bot-sheet.ts --portrait [--out …] [--mp4 …]
 *
 * A recording is prepared as a caller's would be (or a look prepared before is read with --look); the docs' sheet is
 * drawn from test/fixtures/footage/person.mp4, a real person speaking. `--portrait` films the repository's test
 * portrait instead (test/support/footage.ts: a photo of a real person, a slow camera move; its lips never close, so
 * its look is taken before that refusal).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { BotPosition, BotSize } from '../../../functions/domain/choices.ts';
import { type AspectRatio, frameSizeOf } from '../../../functions/domain/shape.ts';
import { inspectBackground } from '../../../functions/media/background-media.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { buildFootageLook, footageLookOf } from '../../../functions/prepare/footage/footage-look.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { filmPhoto } from '../../../test/support/footage.ts';
import { makeSampleBackground } from '../make-sample-background.ts';

const ROW = 360;
const GAP = 12;
/** The MP4's length, seconds. */
const CLIP_SECONDS = 3;
const SHOTS: { size: BotSize; position: BotPosition; aspectRatio: AspectRatio }[] = [
  { size: 'small', position: 'bottom-right', aspectRatio: '16:9' },
  { size: 'medium', position: 'bottom-right', aspectRatio: '16:9' },
  { size: 'large', position: 'center', aspectRatio: '16:9' },
  { size: 'full', position: 'center', aspectRatio: '9:16' },
];

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    look: { type: 'string' },
    portrait: { type: 'boolean', default: false },
    out: { type: 'string', default: 'video-bot-sheet.png' },
    mp4: { type: 'string' },
  },
});
const root = mkdtempSync(join(tmpdir(), 'vidbot-sheet-'));
const dir = values.look ?? join(root, 'look');
mkdirSync(dir, { recursive: true });
if (!existsSync(join(dir, 'manifest.json'))) {
  const recording = positionals[0];
  if (!recording && !values.portrait)
    throw new Error('usage: video-bot-sheet.ts <recording> | --portrait [--look <dir>] [--out sheet.png] [--mp4 sheet.mp4]');
  const look = recording
    ? await buildFootageLook(recording, statSync(recording).size, root)
    : await footageLookOf(await filmPhoto(root, 'portrait.jpg', 10.5, 'portrait.mp4'), 1, root, { cutout: true });
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
}

const background = await makeSampleBackground(join(root, 'background.mp4'), { seconds: 8 });
const rows: { path: string; width: number }[][] = [];
for (const removed of [false, true]) {
  const row: { path: string; width: number }[] = [];
  for (const shot of SHOTS) {
    const frame = frameSizeOf({ aspectRatio: shot.aspectRatio, resolution: '720p' });
    const workDir = mkdtempSync(join(root, 'clip-'));
    const clip = await renderClip({
      bot: { uid: 'me', name: 'Me', description: '', voice: { espeak: 'espeak:en-us+f5' }, defaultPosition: shot.position, look: 'footage' },
      text: 'Hello, this is my own video bot.',
      voice: { id: 'espeak:en-us+f5' },
      position: shot.position,
      botSize: shot.size,
      removeBotBackground: removed,
      ...(removed && { background: await inspectBackground(background, workDir) }),
      backgroundVolume: 0,
      transitions: {},
      frame,
      mode: 'video',
      workDir,
      lookDirectory: dir,
      speech: new EspeakSpeechEngine(),
    });
    row.push({ path: clip.path, width: 2 * Math.round((ROW * frame.width) / frame.height / 2) });
  }
  rows.push(row);
}

const tiles: { input: Buffer; left: number; top: number }[] = [];
for (const [r, row] of rows.entries()) {
  let left = 0;
  for (const [i, shot] of row.entries()) {
    const png = join(root, `${r}-${i}.png`);
    await runFfmpeg(['-y', '-ss', '1', '-i', shot.path, '-frames:v', '1', png], { budgetSeconds: 60 });
    tiles.push({ input: await sharp(png).resize(shot.width, ROW).png().toBuffer(), left, top: r * (ROW + GAP) });
    left += shot.width + GAP;
  }
}
const width = rows[0]!.reduce((sum, shot) => sum + shot.width + GAP, -GAP);
await sharp({ create: { width, height: 2 * ROW + GAP, channels: 3, background: '#ffffff' } })
  .composite(tiles)
  .png()
  .toFile(values.out);
console.log(`wrote ${values.out}`);

if (values.mp4) {
  // The eight clips' first seconds on the sheet's white, in its places: one small MP4 for the docs.
  const shots = rows.flat();
  const inputs = shots.flatMap((shot) => ['-t', String(CLIP_SECONDS), '-i', shot.path]);
  const scaled = shots.map((shot, i) => `[${i}:v]scale=${shot.width}:${ROW},setsar=1,fps=30[s${i}]`);
  let chain = `color=c=white:s=${width}x${2 * ROW + GAP}:r=30:d=${CLIP_SECONDS}[c0]`;
  let left = 0;
  for (const [i, shot] of shots.entries()) {
    const top = i < SHOTS.length ? 0 : ROW + GAP;
    if (i === SHOTS.length) left = 0;
    chain += `;[c${i}][s${i}]overlay=${left}:${top}:eof_action=pass[c${i + 1}]`;
    left += shot.width + GAP;
  }
  const graph = [...scaled, chain].join(';');
  await runFfmpeg(
    [
      '-y',
      ...inputs,
      '-filter_complex',
      graph,
      '-map',
      `[c${shots.length}]`,
      '-an',
      '-c:v',
      'libx264',
      '-crf',
      '30',
      '-preset',
      'slow',
      '-pix_fmt',
      'yuv420p',
      values.mp4,
    ],
    { budgetSeconds: 300 },
  );
  console.log(`wrote ${values.mp4}`);
}
rmSync(root, { recursive: true, force: true });
