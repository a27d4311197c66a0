import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameSize } from '#domain/shape';
import { backgroundInputArgs } from '#media/background-media';
import { carriedBackdrop } from '../carried-backdrop.ts';
import { FPS } from '../types.ts';
import type { LayerKind } from './layer.ts';

/**
 * A calm studio backdrop for clips without a background: a deep blue gradient with a soft light, dithered,
 * computed for the frame's own size (it covers any shape) and kept per size for the life of the process.
 */
const backdrops = new Map<string, Buffer>();

function defaultBackdrop(path: string, frame: FrameSize): void {
  const { width, height } = frame;
  const key = `${width}x${height}`;
  let data = backdrops.get(key);
  if (!data) {
    data = Buffer.alloc(width * height * 3);
    const top = [34, 48, 84];
    const bottom = [12, 18, 36];
    let seed = 12345;
    for (let y = 0; y < height; y++) {
      const v = y / (height - 1);
      for (let x = 0; x < width; x++) {
        const dx = (x - width * 0.62) / width;
        const dy = (y - height * 0.3) / height;
        const glow = Math.exp(-(dx * dx + dy * dy) * 5.5) * 0.55;
        const vignette = 1 - 0.35 * Math.hypot((x / width - 0.5) * 1.2, y / height - 0.5) ** 2;
        seed = (seed * 1103515245 + 12345) >>> 0;
        const dither = ((seed >>> 16) & 0xff) / 255 - 0.5;
        for (let c = 0; c < 3; c++) {
          const base = top[c]! + (bottom[c]! - top[c]!) * v;
          const lit = base + glow * [90, 120, 170][c]!;
          data[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(lit * vignette + dither)));
        }
      }
    }
    backdrops.set(key, data);
  }
  writeFileSync(path, data);
}

/**
 * A repeated picture's frames numbered at FPS on a 1/FPS clock. Without settb a still keeps its input's time base
 * (1/25 for a raw or single-picture input), N/30 s is truncated onto it, and two frames share a time: the bot's frames
 * were overlaid one frame late, and one in six twice (measured: frames 0,0,1,2,3,4,5,5…).
 */
const STILL_CLOCK = `settb=1/${FPS},setpts=N/${FPS}/TB`;

/**
 * The background layer, the first: the caller's file (looped or held to the clip's length, scaled to cover the
 * frame), a `full` presenter's card carried to the frame's edges, or the default backdrop; its audio is the soundtrack's (soundtrack.ts).
 */
export const backgroundLayers: LayerKind = ({ background, frame, input, presenter }) => [
  {
    draw(graph) {
      // Cover the frame: scaled until both sides fill it, the overflow cropped evenly (never letterboxed).
      const scaleToFrame = `scale=${frame.width}:${frame.height}:force_original_aspect_ratio=increase,crop=${frame.width}:${frame.height},setsar=1`;
      if (background) {
        graph.input('background', [...backgroundInputArgs(background), '-i', background.path]);
        const filter = background.format.still
          ? // One picture: scaled and converted once, then repeated.
            `${scaleToFrame},format=yuv420p,loop=loop=-1:size=1:start=0,${STILL_CLOCK}`
          : // tpad: should a file stop looping early, its last picture holds instead of the clip ending short.
            `${scaleToFrame},fps=${FPS},format=yuv420p,tpad=stop=-1:stop_mode=clone`;
        return graph.chain(graph.stream('background', 'v'), filter, 'bg');
      }
      const backdrop = join(input.workDir, 'backdrop.rgb');
      if (presenter.backdrop) writeFileSync(backdrop, carriedBackdrop(frame, presenter.place, presenter.backdrop));
      else defaultBackdrop(backdrop, frame);
      graph.input('background', [
        '-protocol_whitelist',
        'file',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${frame.width}x${frame.height}`,
        '-i',
        backdrop,
      ]);
      // Converted once, then the one frame is repeated.
      return graph.chain(graph.stream('background', 'v'), `format=yuv420p,loop=loop=-1:size=1:start=0,${STILL_CLOCK},setsar=1`, 'bg');
    },
  },
];
