/**
 * A video bot's matte measured on its loops (docs/video-bots.md, "Removing the background"):
 * `npx tsx infra/scripts/measure/video-bot-matte.ts <look dir> [--png <dir>]` reads a prepared look (the bench's
 * or the sheet's `--look`, or a test's), and for each loop with a matte prints the edge's change from frame to frame
 * (the wrap included) against the footage's own, the soft edge's width and the person's least alpha (face, hair,
 * shoulders); `--png` writes a few frames laid over a blue backdrop to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import type { Point } from '../../../functions/domain/face-space.ts';
import { type BotManifest, type FootageLoop, loopFrameSources } from '../../../functions/domain/look.ts';
import { readFootage } from '../../../functions/media/footage-media.ts';
import { edgeChange, edgeWidth, wholePerson } from '../support/matte-measures.ts';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { png: { type: 'string' } } });
const dir = positionals[0];
if (!dir) throw new Error('usage: video-bot-matte.ts <look dir> [--png <dir>]');
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BotManifest;
const footage = manifest.footage!;
const raw = JSON.parse(readFileSync(join(dir, footage.track), 'utf8')) as number[][];
const track: Point[][] = raw.map((f) => Array.from({ length: f.length / 2 }, (_, i) => ({ x: f[2 * i]!, y: f[2 * i + 1]! })));
const size = { width: footage.width, height: footage.height };
if (values.png) mkdirSync(values.png, { recursive: true });

async function measure(name: string, loop: FootageLoop) {
  if (!loop.matte) return console.log(`${name}: no matte`);
  const length = loop.to - loop.from;
  // One frame past the end: the wrap's step.
  const pixels = readFootage(join(dir!, loop.file), size, { loop: true, seconds: 600 });
  const mattes = readFootage(join(dir!, loop.matte), size, { loop: true, seconds: 600, grey: true });
  const steps: Array<{ drawn: number; own: number }> = [];
  const widths: number[] = [];
  let least = { face: 255, hair: 255, shoulders: 255 };
  let before: { rgba: Buffer; alpha: Buffer } | undefined;
  for (let n = 0; n <= length; n++) {
    const now = { rgba: Buffer.from((await pixels.next())!), alpha: Buffer.from((await mattes.next())!) };
    if (before) steps.push(edgeChange(before, now));
    if (n < length) {
      widths.push(edgeWidth(now.alpha, size.width, size.height));
      const whole = wholePerson(now.alpha, size.width, size.height, track[loopFrameSources(loop, n).source]!);
      least = {
        face: Math.min(least.face, whole.face),
        hair: Math.min(least.hair, whole.hair),
        shoulders: Math.min(least.shoulders, whole.shoulders),
      };
      if (values.png && n % 15 === 0) await over(now, join(values.png, `${name}-${String(n).padStart(3, '0')}.png`));
    }
    before = now;
  }
  pixels.close();
  mattes.close();
  const mean = (k: 'drawn' | 'own') => steps.reduce((s, x) => s + x[k], 0) / steps.length;
  const most = (k: 'drawn' | 'own') => Math.max(...steps.map((x) => x[k]));
  const wrap = steps[steps.length - 1]!;
  console.log(
    `${name} (${length} frames): edge change drawn/own mean ${mean('drawn').toFixed(2)}/${mean('own').toFixed(2)}, ` +
      `largest ${most('drawn').toFixed(2)}/${most('own').toFixed(2)}, wrap ${wrap.drawn.toFixed(2)}/${wrap.own.toFixed(2)}; ` +
      `edge width ${Math.min(...widths).toFixed(2)}-${Math.max(...widths).toFixed(2)} px; ` +
      `least alpha face ${least.face}, hair ${least.hair}, shoulders ${least.shoulders}`,
  );
}

/** The frame laid over a saturated blue, as PNG: a halo of the old backdrop shows against it. */
async function over(frame: { rgba: Buffer; alpha: Buffer }, path: string) {
  const out = Buffer.alloc(size.width * size.height * 3);
  const blue = [30, 60, 200];
  for (let p = 0; p < frame.alpha.length; p++)
    for (let c = 0; c < 3; c++) out[p * 3 + c] = Math.round((frame.alpha[p]! * frame.rgba[p * 4 + c]! + (255 - frame.alpha[p]!) * blue[c]!) / 255);
  await sharp(out, { raw: { ...size, channels: 3 } })
    .png()
    .toFile(path);
}

await measure('loop', footage.loop);
if (footage.listen) await measure('listen', footage.listen);
