/**
 * A video bot's edge in the person's own colours (functions/prepare/footage/edge-colours.ts), on a drawn 700-px
 * frame: a dark disc (the person) on a white backdrop, its matte ramping from 255 inside to 0 over 8 px, the pixels
 * of the ramp a mix of the two as a recording's are.
 */
import { describe, expect, it } from 'vitest';
import { EdgeColours } from '#functions/prepare/footage/edge-colours.ts';

const SIZE = 700;
const PERSON = [40, 30, 20] as const;

function frame(): { rgba: Buffer; alpha: Uint8Array } {
  const rgba = Buffer.alloc(SIZE * SIZE * 4);
  const alpha = new Uint8Array(SIZE * SIZE);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const i = y * SIZE + x;
      const a = Math.min(1, Math.max(0, (200 - Math.hypot(x - 350, y - 350)) / 8));
      alpha[i] = Math.round(255 * a);
      for (let k = 0; k < 3; k++) rgba[4 * i + k] = Math.round(a * PERSON[k]! + (1 - a) * 255);
      rgba[4 * i + 3] = 255;
    }
  return { rgba, alpha };
}

describe("a cut-out's edge in the person's colours", () => {
  it("gives every unsure pixel near the person the person's colour, and leaves the sure ones and the far backdrop as they were", () => {
    const { rgba, alpha } = frame();
    const edges = new EdgeColours(SIZE, SIZE);
    const out = edges.of(rgba, alpha);
    let ramp = 0;
    let rampOff = 0;
    let sureChanged = 0;
    for (let i = 0; i < SIZE * SIZE; i++) {
      if (out[4 * i + 3] !== 255) sureChanged++;
      if (alpha[i]! >= 248) {
        for (let k = 0; k < 3; k++) if (out[4 * i + k] !== rgba[4 * i + k]) sureChanged++;
      } else if (alpha[i]! > 0) {
        ramp++;
        // Under 16 the person's colour in the matte's proportion, the rest the pixel's own.
        const share = Math.min(1, alpha[i]! / 16);
        for (let k = 0; k < 3; k++) rampOff = Math.max(rampOff, Math.abs(out[4 * i + k]! - (share * PERSON[k]! + (1 - share) * rgba[4 * i + k]!)));
      }
    }
    expect(sureChanged).toBe(0);
    // The recording's own ramp was up to 235 levels off, a mix nearly as light as the backdrop; given the colour of
    // the surely-person pixels beside it (themselves up to 2.7 % backdrop: 7 levels), none is more than 8 off what
    // it should be.
    expect(rampOff).toBeLessThanOrEqual(8);
    expect(ramp).toBeGreaterThan(8000);
    // The corner, 295 px from the disc's edge, beyond every radius (35 px at 700): its own colour.
    expect([...out.subarray(0, 3)]).toEqual([255, 255, 255]);
    // The same object on the next frame gives the same answer (its working arrays start clean).
    expect(edges.of(rgba, alpha).equals(out)).toBe(true);
  });

  it('leaves no step where the search for the person ends in a faint tail of the matte (no dark ring)', () => {
    // The disc's matte with a faint tail 30 px long outside it (alpha 40 falling to 1), over the white backdrop: the
    // tail reaches past the third radius (14 px at 700). Laid over pale yellow, the composite along a radius must
    // change smoothly, pixel to pixel, as the recording's own does.
    const { rgba, alpha } = frame();
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        const d = Math.hypot(x - 350, y - 350) - 200;
        if (d > -8 && d < 30) alpha[y * SIZE + x] = Math.max(alpha[y * SIZE + x]!, Math.round(40 * (1 - d / 30)) || 1);
      }
    const out = new EdgeColours(SIZE, SIZE).of(rgba, alpha);
    const laid = (b: Buffer, x: number) => {
      const i = 350 * SIZE + x;
      const a = alpha[i]! / 255;
      return a * b[4 * i]! + (1 - a) * 250;
    };
    let ownStep = 0;
    let outStep = 0;
    for (let x = 551; x < 600; x++) {
      ownStep = Math.max(ownStep, Math.abs(laid(rgba, x) - laid(rgba, x - 1)));
      outStep = Math.max(outStep, Math.abs(laid(out, x) - laid(out, x - 1)));
    }
    // The tail darkens smoothly (under 3 levels a pixel); where the search ended at 14 px, the tail coloured whole
    // stepped by 27 levels.
    expect(ownStep).toBeLessThan(0.1);
    expect(outStep).toBeLessThan(3);
  });

  it('leaves a frame the matte is sure of throughout, or of none of it, as it is', () => {
    const { rgba } = frame();
    const edges = new EdgeColours(SIZE, SIZE);
    expect(edges.of(rgba, new Uint8Array(SIZE * SIZE).fill(255)).equals(rgba)).toBe(true);
    expect(edges.of(rgba, new Uint8Array(SIZE * SIZE)).equals(rgba)).toBe(true);
  });
});
