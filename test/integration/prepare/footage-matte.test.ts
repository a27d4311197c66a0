/**
 * A video bot's matte (docs/video-bots.md, "Removing the background") on the test portrait filmed with a slow
 * camera move (test/support/footage.ts): ISNet on the key frames of a one-second loop, the frames between carried by
 * the head's motion. Measured on its frames: the edge's change from frame to frame against the footage's own, the
 * soft edge's width, the person whole, the carried matte against ISNet's own on the frame farthest from a key; then
 * the footage rig laying it on as the frame's alpha.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Point } from '#domain/face-space';
import type { BotManifest, FootageLoop } from '#domain/look';
import { cutFootage, readFootage } from '#functions/media/footage-media.ts';
import { footageLookOf } from '#functions/prepare/footage/footage-look.ts';
import { keyFramesOf, matteLoop } from '#functions/prepare/footage/footage-matte.ts';
import { matte } from '#functions/prepare/matting.ts';
import { FootageRig } from '#functions/render/engine/footage/footage-rig.ts';
import { edgeChange, edgeWidth, wholePerson } from '#infra/scripts/support/matte-measures.ts';
import { filmPhoto } from '../../support/footage.ts';

let root: string;
let dir: string;
let manifest: BotManifest;
let track: Point[][];
let loop: FootageLoop;
const frames: Array<{ rgba: Buffer; alpha: Buffer; cutout: Buffer }> = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-footage-matte-'));
  dir = join(root, 'look');
  mkdirSync(dir);
  const work = mkdtempSync(join(root, 'prepare-'));
  const look = await footageLookOf(await filmPhoto(root, 'portrait.jpg', 10.5, 'portrait.mp4'), 1, work);
  for (const [file, bytes] of look.files) writeFileSync(join(dir, file), bytes);
  manifest = look.manifest;
  const footage = manifest.footage!;
  track = (JSON.parse(readFileSync(join(dir, footage.track), 'utf8')) as number[][]).map((f) =>
    Array.from({ length: f.length / 2 }, (_, i) => ({ x: f[2 * i]!, y: f[2 * i + 1]! })),
  );
  // A loop of 31 frames: two key frames (ISNet's 10 CPU seconds each), 29 carried between them.
  loop = { file: 'short.mp4', from: footage.loop.from, to: footage.loop.from + 31, blend: 0, matte: 'short-matte.mp4', cutout: 'short-cutout.mp4' };
  await cutFootage(join(dir, footage.file), footage.fps, { from: loop.from, to: loop.to, blend: 0 }, join(dir, loop.file));
  const into = { mattePath: join(dir, loop.matte!), cutoutPath: join(dir, loop.cutout!) };
  const keys = await matteLoop(loop, join(dir, loop.file), into, { ...footage, reference: footage.reference }, track);
  expect(keys).toBe(2);
  const size = { width: footage.width, height: footage.height };
  const pixels = readFootage(join(dir, loop.file), size, { loop: false, seconds: 60 });
  const mattes = readFootage(join(dir, loop.matte!), size, { loop: false, seconds: 60, grey: true });
  const cutouts = readFootage(join(dir, loop.cutout!), size, { loop: false, seconds: 60 });
  for (let n = 0; n < 31; n++)
    frames.push({
      rgba: Buffer.from((await pixels.next())!),
      alpha: Buffer.from((await mattes.next())!),
      cutout: Buffer.from((await cutouts.next())!),
    });
  pixels.close();
  mattes.close();
  cutouts.close();
}, 600_000);
afterAll(() => (process.env.KEEP_MATTE ? console.log(root) : rmSync(root, { recursive: true, force: true })));

describe('a video bot’s matte', () => {
  it('puts key frames a second apart at most, the first and the last included', () => {
    expect(keyFramesOf(31)).toEqual([0, 30]);
    expect(keyFramesOf(100)).toEqual([0, 25, 50, 74, 99]);
    expect(keyFramesOf(1)).toEqual([0]);
  });

  it('keeps the person whole, with a tight edge that changes no more than the footage does', () => {
    const { width, height } = manifest.footage!;
    const steps = frames.slice(1).map((now, n) => edgeChange(frames[n]!, now));
    const drawn = steps.reduce((s, x) => s + x.drawn, 0) / steps.length;
    const own = steps.reduce((s, x) => s + x.own, 0) / steps.length;
    const widths = frames.map((f) => edgeWidth(f.alpha, width, height));
    const whole = frames.map((f, n) => wholePerson(f.alpha, width, height, track[loop.from + n]!));
    console.log(
      `matte on the test portrait: edge change drawn ${drawn.toFixed(2)} / own ${own.toFixed(2)} (largest ${Math.max(...steps.map((s) => s.drawn)).toFixed(2)} / ${Math.max(...steps.map((s) => s.own)).toFixed(2)}); ` +
        `edge width ${Math.min(...widths).toFixed(2)}-${Math.max(...widths).toFixed(2)} px; least alpha face ${Math.min(...whole.map((w) => w.face))}, hair ${Math.min(...whole.map((w) => w.hair))}, shoulders ${Math.min(...whole.map((w) => w.shoulders))}`,
    );
    expect(drawn).toBeLessThanOrEqual(own * 1.1);
    // The loop is steadied as a circle: its wrap (the last frame to the first) is a step like any other.
    const wrap = edgeChange(frames[frames.length - 1]!, frames[0]!);
    console.log(`the wrap: edge change drawn ${wrap.drawn.toFixed(2)} / own ${wrap.own.toFixed(2)}`);
    expect(wrap.drawn).toBeLessThanOrEqual(wrap.own * 1.1);
    // The portrait's loose strands of hair measure 8 to 10 px; a backdrop's halo would add its own ring.
    expect(Math.max(...widths)).toBeLessThan(12);
    for (const w of whole) {
      expect(w.face).toBeGreaterThanOrEqual(230);
      expect(w.hair).toBeGreaterThanOrEqual(230);
      expect(w.shoulders).toBeGreaterThanOrEqual(230);
    }
  });

  it('gives the edge the colour of the person beside it, not of the backdrop behind it (no rim)', () => {
    const { width, height } = manifest.footage!;
    // Each edge pixel against its nearest pixel that is surely the person (within 8 px), on three frames: the loop's
    // own colours there mix the backdrop in; the cut-out's are the person's.
    const offEdge = (frame: { rgba: Buffer; alpha: Buffer }, colours: Buffer) => {
      let sum = 0;
      let count = 0;
      for (let y = 8; y < height - 8; y++)
        for (let x = 8; x < width - 8; x++) {
          const a = frame.alpha[y * width + x]!;
          if (a < 32 || a > 224) continue;
          let best = Infinity;
          let near = -1;
          for (let dy = -8; dy <= 8; dy++)
            for (let dx = -8; dx <= 8; dx++) {
              const q = (y + dy) * width + x + dx;
              if (frame.alpha[q]! >= 248 && dx * dx + dy * dy < best) [best, near] = [dx * dx + dy * dy, q];
            }
          if (near < 0) continue;
          const p = y * width + x;
          for (let k = 0; k < 3; k++) sum += Math.abs(colours[4 * p + k]! - frame.rgba[4 * near + k]!);
          count += 3;
        }
      return { levels: sum / count, count };
    };
    for (const n of [0, 15, 30]) {
      const own = offEdge(frames[n]!, frames[n]!.rgba);
      const cut = offEdge(frames[n]!, frames[n]!.cutout);
      console.log(
        `frame ${n}: ${own.count / 3} edge pixels, the loop's colour ${own.levels.toFixed(1)} levels from the person's, the cut-out's ${cut.levels.toFixed(1)}`,
      );
      expect(own.count).toBeGreaterThan(300);
      expect(cut.levels).toBeLessThan(own.levels * 0.6);
    }
    // Where the matte is sure, the cut-out is the loop's own frame (within the encoder's loss).
    const middle = frames[15]!;
    let sure = 0;
    let apart = 0;
    for (let p = 0; p < width * height; p++) {
      if (middle.alpha[p]! < 252) continue;
      sure++;
      for (let k = 0; k < 3; k++) apart += Math.abs(middle.cutout[4 * p + k]! - middle.rgba[4 * p + k]!);
    }
    expect(apart / (3 * sure)).toBeLessThan(2);
  });

  it('carries the keys’ mattes onto the frame farthest from both as ISNet itself cuts it', async () => {
    const { width, height } = manifest.footage!;
    const middle = frames[15]!;
    const direct = await matte(middle.rgba, width, height);
    let differs = 0;
    let edge = 0;
    for (let p = 0; p < direct.length; p++) {
      const own = direct[p]! * 255;
      if (own <= 25 || own >= 230) continue;
      edge++;
      differs += Math.abs(middle.alpha[p]! - own);
    }
    console.log(`carried against ISNet on frame 15: ${(differs / edge).toFixed(1)} levels on its ${edge} edge pixels`);
    expect(differs / edge).toBeLessThan(40);
  }, 120_000);

  it('is the frame’s alpha when the rig cuts the person out, faded at the bottom where the bust ends in mid-air', async () => {
    const footage = { ...manifest.footage!, loop, listen: undefined };
    const cut = { ...manifest, footage };
    await expect(FootageRig.open(dir, { ...manifest }, 200, false, 'loop', { fadeBottom: false })).rejects.toThrow(/no matte/);
    await expect(FootageRig.open(dir, cut, 200, false, 'as_recorded', { fadeBottom: false })).rejects.toThrow(/no matte/);
    const rig = await FootageRig.open(dir, cut, footage.height, false, 'loop', { fadeBottom: true });
    try {
      // Two and a half times round the loop: after the first, the rig lays the matte's frames it kept.
      expect(loop.to - loop.from).toBe(frames.length);
      for (let n = 0; n < 2.5 * frames.length; n++) {
        const drawn = await rig.render(n, { frame: 'm1' }, 2);
        const { alpha } = frames[n % frames.length]!;
        const row = (y: number) => {
          let sum = 0;
          for (let x = 0; x < rig.width; x++) sum += Math.abs(drawn[(y * rig.width + x) * 4 + 3]! - alpha[y * rig.width + x]!);
          return sum / rig.width;
        };
        // Above the fade the alpha is the matte's; the bottom row is gone.
        expect(row(Math.round(rig.height * 0.5))).toBeLessThan(1);
        for (let x = 0; x < rig.width; x++) expect(drawn[((rig.height - 1) * rig.width + x) * 4 + 3]).toBe(0);
      }
    } finally {
      rig.close();
    }
  });
});
