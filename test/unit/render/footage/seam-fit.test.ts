import { describe, expect, it } from 'vitest';
import { SeamFit } from '#functions/render/engine/footage/seam-fit.ts';

describe("the blend's colour match along the seam", () => {
  it('recovers a difference that changes across and down the lower face, per channel', () => {
    const fit = new SeamFit(100, 80);
    // A seam's ring of points; red differs by 6 + 12u (lit from one side), green by -4v, blue by a constant 3.
    for (let k = 0; k < 200; k++) {
      const fx = 50 + 40 * Math.cos(k / 10);
      const fy = 40 + 30 * Math.sin(k / 10);
      const [u, v] = [fx / 100 - 0.5, fy / 80 - 0.5];
      fit.add(fx, fy, 6 + 12 * u, -4 * v, 3);
    }
    const plane = Array.from(fit.solve());
    const expected = [6, 12, 0, 0, 0, -4, 3, 0, 0];
    for (const [i, k] of plane.entries()) expect(k).toBeCloseTo(expected[i]!, 6);
  });

  it('falls back to the mean difference with too few points or points on one line', () => {
    const few = new SeamFit(100, 80);
    few.add(10, 10, 4, 2, 0);
    few.add(90, 70, 8, 2, 0);
    expect(Array.from(few.solve())).toEqual([6, 0, 0, 2, 0, 0, 0, 0, 0]);
    const line = new SeamFit(100, 80);
    for (let k = 0; k < 20; k++) line.add(50, k * 4, 10, 0, -2);
    expect(Array.from(line.solve())).toEqual([10, 0, 0, 0, 0, 0, -2, 0, 0]);
  });

  it('falls back to the mean difference when the points nearly lie on a line, rather than tilt by their noise', () => {
    // A seam 0.5 of the face wide and 0.02 high: its slope down the face would rest on a noise of 1 level.
    const thin = new SeamFit(100, 100);
    for (let k = 0; k < 100; k++) thin.add(25 + k / 2, 50 + (k % 2 ? 1 : -1), 5 + (k % 2 ? 1 : -1), 0, 0);
    expect(Array.from(thin.solve())).toEqual([5, 0, 0, 0, 0, 0, 0, 0, 0]);
    // The same seam 0.2 high fits its plane.
    const wide = new SeamFit(100, 100);
    for (let k = 0; k < 100; k++) wide.add(25 + k / 2, 50 + (k % 2 ? 10 : -10), 5 + (k % 2 ? 1 : -1), 0, 0);
    expect(wide.solve()[2]).toBeCloseTo(10, 6);
  });
});
