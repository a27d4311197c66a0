import { describe, expect, it } from 'vitest';
import { SeamMembrane } from '#functions/render/engine/footage/seam-membrane.ts';

/** A 120 x 96 face space whose mask is an ellipse; its ring (the seam) is where the mask is partly on. */
const width = 120;
const height = 96;
const ellipse = (fx: number, fy: number) => ((fx - 60) / 50) ** 2 + ((fy - 48) / 40) ** 2;
const weightAt = (fx: number, fy: number) => Math.max(0, Math.min(1, (1.1 - ellipse(fx, fy)) / 0.2));
const seamPoints = function* () {
  for (let fy = 0; fy < height; fy += 2)
    for (let fx = 0; fx < width; fx += 2) {
      const w = weightAt(fx, fy);
      if (w > 0.1 && w < 0.9) yield [fx, fy] as const;
    }
};

describe("the seam's difference carried inward (a membrane)", () => {
  it('fills the inside with the seam difference when that is the same all round', () => {
    const membrane = new SeamMembrane(width, height);
    for (const [fx, fy] of seamPoints()) membrane.add(fx, fy, 9, -4, 0);
    membrane.solve(weightAt);
    const out = [0, 0, 0];
    for (const [fx, fy] of [
      [60, 48],
      [40, 40],
      [80, 60],
    ] as const) {
      membrane.at(fx, fy, out);
      expect(out[0]).toBeCloseTo(9, 1);
      expect(out[1]).toBeCloseTo(-4, 1);
      expect(out[2]).toBeCloseTo(0, 6);
    }
  });

  it('carries a difference that changes across the face smoothly through the inside (a harmonic function: a slope stays a slope)', () => {
    const membrane = new SeamMembrane(width, height);
    // Red 0.3 a pixel across (a side lit otherwise); green darker on the left only, a step a plane cannot follow.
    for (const [fx, fy] of seamPoints()) membrane.add(fx, fy, 0.3 * (fx - 60), fx < 60 ? -12 : 0, 0);
    membrane.solve(weightAt);
    const out = [0, 0, 0];
    for (const fx of [30, 45, 60, 75, 90]) {
      membrane.at(fx, 48, out);
      expect(Math.abs(out[0]! - 0.3 * (fx - 60))).toBeLessThan(1.5);
    }
    // The step spreads: near the left seam about its value, near the right about nothing, the middle between.
    const at = (fx: number) => {
      membrane.at(fx, 48, out);
      return out[1]!;
    };
    expect(at(20)).toBeLessThan(-9);
    expect(at(100)).toBeGreaterThan(-3);
    expect(at(60)).toBeGreaterThan(at(20));
    expect(at(60)).toBeLessThan(at(100));
  });

  it('is nothing without seam points', () => {
    const membrane = new SeamMembrane(width, height);
    const out = [1, 1, 1];
    membrane.solve(weightAt);
    membrane.at(60, 48, out);
    expect(out).toEqual([0, 0, 0]);
  });

  it("stays flat up to the mask's edge, and has cells to read however small the face", () => {
    const membrane = new SeamMembrane(width, height);
    for (const [fx, fy] of seamPoints()) membrane.add(fx, fy, 6, 6, 6);
    membrane.solve(weightAt);
    const out = [0, 0, 0];
    // Just inside the ellipse's outer edge, between seam cells and cells outside: the seam's value, not less.
    membrane.at(60, 48 + 43, out);
    expect(out[0]).toBeCloseTo(6, 6);
    const tiny = new SeamMembrane(3, 1);
    tiny.add(1, 0.5, 4, 4, 4);
    tiny.add(1, 0.5, 4, 4, 4);
    tiny.solve(() => 1);
    tiny.at(1.5, 0.5, out);
    for (const v of out) expect(Number.isFinite(v)).toBe(true);
  });

  it('fades in with the seam cells it has (a face drawn very small), rather than switching on whole at one size', () => {
    // The seam's points thinned as a small face gives them: every k-th point, each cell needing two to count.
    const membraneOf = (every: number) => {
      const membrane = new SeamMembrane(width, height);
      let n = 0;
      for (const [fx, fy] of seamPoints()) if (n++ % every === 0) membrane.add(fx, fy, 10, 10, 10);
      membrane.solve(weightAt);
      const out = [0, 0, 0];
      membrane.at(60, 48, out);
      return out[0]!;
    };
    const levels = [1, 4, 8, 12, 16, 24, 40].map(membraneOf);
    // Whole where the seam is well covered; less and less as it thins, down to nothing; never over the seam's value.
    expect(levels[0]).toBeCloseTo(10, 1);
    expect(levels.at(-1)).toBe(0);
    // Between, a share of it: neither nothing nor whole.
    expect(levels.some((level) => level > 1 && level < 9)).toBe(true);
    for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 0.01);
    for (const level of levels) expect(level).toBeLessThanOrEqual(10.01);
  });
});
