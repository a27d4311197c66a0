import { describe, expect, it } from 'vitest';
import type { FootageLoop } from '#domain/look';
import { FootageLoopReader, type KeptBytes } from '#functions/render/engine/footage/footage-loop.ts';
import type { FrameReader } from '#media/media';

const pixels = 4;
const loop: FootageLoop = { file: 'loop.mp4', from: 10, to: 16, blend: 0 };
const period = loop.to - loop.from;

/** A reader of a loop of `bytes`-long frames, over and over (each byte the frame's place in the loop + `offset`), counting its calls; it reuses one buffer, as a reader may. */
function fakeReader(bytes: number, offset: number) {
  const buffer = Buffer.alloc(bytes);
  const reader = {
    reads: 0,
    closed: 0,
    async next() {
      if (reader.closed) throw new Error('read after close');
      buffer.fill(((reader.reads++ % period) + offset) % 256);
      return buffer;
    },
    close() {
      reader.closed++;
    },
  };
  return reader satisfies FrameReader;
}

const track = Array.from({ length: 20 }, (_, i) => [{ x: i, y: i }]);

/** `frames` frames of a loop reader over fake footage and (with `matte`) a fake matte; the frames' bytes, copied. */
async function readLoop(budget: KeptBytes, frames: number, matte: boolean) {
  const footage = fakeReader(4 * pixels, 0);
  const alpha = matte ? fakeReader(pixels, 100) : undefined;
  const reader = new FootageLoopReader(footage, loop, track, alpha, pixels, budget);
  const shown: Buffer[] = [];
  for (let n = 0; n < frames; n++) {
    const { frame, landmarks } = await reader.next();
    expect(landmarks[0]!.x).toBe(loop.from + (n % period));
    shown.push(Buffer.from(frame));
    // The frame is the caller's: changing it changes nothing kept.
    frame.fill(255);
  }
  reader.close();
  return { shown, footage, alpha };
}

/** What a loop of `period` frames shows at frame n: the footage's frame's colour, the matte's alpha. */
const expected = (n: number, matte: boolean) => {
  const k = n % period;
  return Buffer.from(Array.from({ length: 4 * pixels }, (_, b) => (b % 4 === 3 && matte ? 100 + k : k)));
};

describe("a video bot's loop, its first time round kept", () => {
  it('keeps the frames, the matte in them, when they fit: both decoders read once round and are closed', async () => {
    const budget = { left: 4 * pixels * period };
    const { shown, footage, alpha } = await readLoop(budget, 2.5 * period, true);
    expect(budget.left).toBe(0);
    shown.forEach((frame, n) => expect(frame, `frame ${n}`).toEqual(expected(n, true)));
    expect([footage.reads, alpha!.reads]).toEqual([period, period]);
    expect(footage.closed).toBeGreaterThan(0);
    expect(alpha!.closed).toBeGreaterThan(0);
  });

  it('keeps the matte alone when the frames do not fit: the footage is decoded every time round', async () => {
    const budget = { left: 4 * pixels * period - 1 };
    const { shown, footage, alpha } = await readLoop(budget, 2.5 * period, true);
    expect(budget.left).toBe(4 * pixels * period - 1 - pixels * period);
    shown.forEach((frame, n) => expect(frame, `frame ${n}`).toEqual(expected(n, true)));
    expect([footage.reads, alpha!.reads]).toEqual([2.5 * period, period]);
  });

  it('keeps nothing when neither fits, and reads both every time round', async () => {
    const budget = { left: pixels * period - 1 };
    const { shown, footage, alpha } = await readLoop(budget, 2.5 * period, true);
    expect(budget.left).toBe(pixels * period - 1);
    shown.forEach((frame, n) => expect(frame, `frame ${n}`).toEqual(expected(n, true)));
    expect([footage.reads, alpha!.reads]).toEqual([2.5 * period, 2.5 * period]);
  });

  it('shares one budget between the loops of a rig: the first takes what it needs, the next what is left', async () => {
    const budget = { left: 4 * pixels * period + pixels * period };
    const first = await readLoop(budget, 2 * period, true);
    const second = await readLoop(budget, 2 * period, true);
    expect(budget.left).toBe(0);
    expect([first.footage.reads, first.alpha!.reads]).toEqual([period, period]);
    expect([second.footage.reads, second.alpha!.reads]).toEqual([2 * period, period]);
    const third = await readLoop(budget, 2 * period, false);
    expect(third.footage.reads).toBe(2 * period);
    third.shown.forEach((frame, n) => expect(frame, `frame ${n}`).toEqual(expected(n, false)));
  });
});
