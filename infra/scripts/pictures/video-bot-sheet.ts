/**
 * A contact sheet of a video bot made from your recording (docs/video-bots.md): one frame of the engine's render
 * in each of `small`, `medium` and `large` (16:9 720p, bottom-right, centre) and in 9:16 `full`, side by side at
 * one height, written as a PNG. The recording is prepared as a caller's would be (or a look prepared before is read
 * with --look, e.g. one kept by infra/scripts/measure/video-bot-measures.ts --keep).
 *
 *   npx tsx infra/scripts/pictures/video-bot-sheet.ts <recording.mp4> [--look <dir>] [--out sheet.png]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { BotPosition, BotSize } from '../../../functions/domain/choices.ts';
import { type AspectRatio, frameSizeOf } from '../../../functions/domain/shape.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { buildFootageLook } from '../../../functions/prepare/footage/footage-look.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';

const ROW = 360;
const SHOTS: { size: BotSize; position: BotPosition; aspectRatio: AspectRatio }[] = [
  { size: 'small', position: 'bottom-right', aspectRatio: '16:9' },
  { size: 'medium', position: 'bottom-right', aspectRatio: '16:9' },
  { size: 'large', position: 'center', aspectRatio: '16:9' },
  { size: 'full', position: 'center', aspectRatio: '9:16' },
];

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { look: { type: 'string' }, out: { type: 'string', default: 'video-bot-sheet.png' } },
});
const root = mkdtempSync(join(tmpdir(), 'vidbot-sheet-'));
const dir = values.look ?? join(root, 'look');
mkdirSync(dir, { recursive: true });
if (!existsSync(join(dir, 'manifest.json'))) {
  const recording = positionals[0];
  if (!recording) throw new Error('usage: video-bot-sheet.ts <recording> [--look <dir>] [--out sheet.png]');
  const look = await buildFootageLook(recording, statSync(recording).size, root);
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
}

const tiles: { input: Buffer; left: number; top: number }[] = [];
let left = 0;
for (const shot of SHOTS) {
  const frame = frameSizeOf({ aspectRatio: shot.aspectRatio, resolution: '720p' });
  const clip = await renderClip({
    bot: { uid: 'me', name: 'Me', description: '', voice: { espeak: 'espeak:en-us+f5' }, defaultPosition: shot.position, look: 'footage' },
    text: 'Hello, this is my own video bot.',
    voice: { id: 'espeak:en-us+f5' },
    position: shot.position,
    botSize: shot.size,
    removeBotBackground: false,
    backgroundVolume: 0,
    transitions: {},
    frame,
    mode: 'video',
    workDir: mkdtempSync(join(root, 'clip-')),
    lookDirectory: dir,
    speech: new EspeakSpeechEngine(),
  });
  const png = join(root, `${shot.size}.png`);
  await runFfmpeg(['-y', '-ss', '1', '-i', clip.path, '-frames:v', '1', png], { budgetSeconds: 60 });
  const width = Math.round((ROW * frame.width) / frame.height);
  tiles.push({ input: await sharp(png).resize(width, ROW).png().toBuffer(), left, top: 0 });
  left += width + 12;
}
await sharp({ create: { width: left - 12, height: ROW, channels: 3, background: '#ffffff' } })
  .composite(tiles)
  .png()
  .toFile(values.out);
console.log(`wrote ${values.out}`);
rmSync(root, { recursive: true, force: true });
