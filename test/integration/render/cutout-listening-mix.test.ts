import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { BotManifest } from '#domain/look';
import { FootageRig } from '#functions/render/engine/footage/footage-rig.ts';
import { ffmpegPath } from '#media/binaries';

/**
 * With remove_bot_background, the switch between a video bot's speaking and listening loops mixes
 * the two frames shows the person and the other
 * its removed backdrop, the backdrop's colour is mixed into the person's: the removed background shows through at
 * every switch. Here the speaking loop is a red person on the left half (a blue backdrop on the right), the
 * listening loop a green person on the right half (a blue backdrop on the left); halfway through the switch the left
 * half must be red at half opacity, not red mixed with the backdrop's blue.
 */
const size = 64;
const frames = 10;
const dir = mkdtempSync(join(tmpdir(), 'review-cutout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function encode(path: string, pix: 'rgb24' | 'gray', frame: Buffer) {
  const run = spawnSync(
    ffmpegPath(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      pix,
      '-s',
      `${size}x${size}`,
      '-r',
      '30',
      '-i',
      'pipe:0',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '10',
      '-pix_fmt',
      'yuv420p',
      path,
    ],
    { input: Buffer.concat(Array.from({ length: frames }, () => frame)) },
  );
  if (run.status !== 0) throw new Error(run.stderr.toString());
}

/** One frame: `person` colour on the `side` half, the backdrop (blue) on the other; and its matte. */
function loop(name: string, person: [number, number, number], side: 'left' | 'right') {
  const rgb = Buffer.alloc(size * size * 3);
  const grey = Buffer.alloc(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const inPerson = side === 'left' ? x < size / 2 : x >= size / 2;
      rgb.set(inPerson ? person : [0, 0, 255], (y * size + x) * 3);
      grey[y * size + x] = inPerson ? 255 : 0;
    }
  encode(join(dir, `${name}.mp4`), 'rgb24', rgb);
  encode(join(dir, `${name}-matte.mp4`), 'gray', grey);
}

describe('a cut-out video bot between its speaking and listening loops', () => {
  it("shows no trace of the removed backdrop's colour", async () => {
    loop('loop', [255, 0, 0], 'left');
    loop('listen', [0, 255, 0], 'right');
    const atlas = new PNG({ width: 2, height: 2 });
    writeFileSync(join(dir, 'mouths.png'), PNG.sync.write(atlas));
    writeFileSync(join(dir, 'track.json'), JSON.stringify(Array.from({ length: frames }, () => new Array(136).fill(0))));
    const manifest = {
      width: size,
      height: size,
      footage: {
        width: size,
        height: size,
        fps: 30,
        file: 'loop.mp4',
        frames,
        loop: { file: 'loop.mp4', from: 0, to: frames, matte: 'loop-matte.mp4' },
        listen: { file: 'listen.mp4', from: 0, to: frames, matte: 'listen-matte.mp4' },
        track: 'track.json',
        reference: [],
        eyePx: 10,
        atlas: 'mouths.png',
        samples: [],
        listening: [],
        // No face anywhere: the rig shows the frames without a mouth (only the loops' mix is under test).
        unseen: [[0, frames]],
      },
    } as unknown as BotManifest;
    const rig = await FootageRig.open(dir, manifest, size, false, 'loop', { fadeBottom: false });
    try {
      const frame = await rig.render(0, { frame: 'm0' }, 1, 0.5);
      const p = ((size / 2) * size + size / 4) * 4; // the left half: the speaking loop's person, the listening loop's backdrop
      const [r, b, a] = [frame[p]!, frame[p + 2]!, frame[p + 3]!];
      expect(a).toBeGreaterThan(100);
      expect(a).toBeLessThan(160);
      // Premultiplied, the colour shown is the person's (red); straight-alpha mixing makes it red + blue (purple).
      expect(r).toBeGreaterThan(200);
      expect(b).toBeLessThan(40);
    } finally {
      rig.close();
    }
  }, 60_000);
});
