/**
 * The runs normaliseLoudness (functions/media/loudness.ts) makes, each path of it, with a stand-in for ffmpeg: a
 * function of the setting that answers what the meter would read. The real sounds are in
 * test/integration/render/recording-loudness.test.ts; these are the paths no generated sound reaches on purpose.
 */
import { describe, expect, it } from 'vitest';
import { type Loudness, type LoudnessSetting, normaliseLoudness } from '#media/loudness';

/** A stand-in for the runs: records each setting and answers `reading(setting, run number)`. */
function runs(reading: (setting: LoudnessSetting, n: number) => Loudness | undefined) {
  const made: LoudnessSetting[] = [];
  return { made, run: async (setting: LoudnessSetting) => reading(setting, made.push(setting)) };
}
const measured = { integrated: -26, truePeak: -8 };

describe("normaliseLoudness's runs", () => {
  it('makes one run when the gain lands within 0.5 LU and the true peak within the bound', async () => {
    const { made, run } = runs(() => ({ integrated: -16.3, truePeak: -2 }));
    await expect(normaliseLoudness(measured, run)).resolves.toEqual({ integrated: -16.3, truePeak: -2 });
    expect(made).toEqual([{ gain: 10, ceiling: -2, oversampled: false, after: 0 }]);
  });

  it('corrects the gain by each miss, three runs at most', async () => {
    // The limiter takes two thirds of whatever the gain gives over 8 dB: each correction moves, none lands.
    const { made, run } = runs(({ gain }) => ({ integrated: -26 + Math.min(gain, 8) + Math.max(0, gain - 8) / 3, truePeak: -2 }));
    const reading = await normaliseLoudness(measured, run);
    expect(made.map((s) => s.gain.toFixed(2))).toEqual(['10.00', '11.33', '12.22']);
    expect(reading.integrated).toBeCloseTo(-16.59, 2);
  });

  it('stops correcting once a correction moves the loudness by less than a quarter of what it asked', async () => {
    const { made, run } = runs(({ gain }) => ({ integrated: gain > 10 ? -17.1 : -17.2, truePeak: -2 }));
    await normaliseLoudness(measured, run);
    expect(made).toHaveLength(2);
  });

  it('turns to the oversampled limiter once a true peak reads over -1.6 dBTP, and corrects what it takes afresh', async () => {
    // The plain limiter stalls (its correction moves 0.05 LU of the 1.2 asked) and lets a peak over on it; the
    // oversampled one takes 0.45 LU more and answers a gain, so its correction must not be skipped as stalled.
    const { made, run } = runs(({ gain, oversampled }) =>
      oversampled
        ? { integrated: -17.6 + (gain - 11.2), truePeak: -2 }
        : gain > 10
          ? { integrated: -17.15, truePeak: -1.1 }
          : { integrated: -17.2, truePeak: -1.6 },
    );
    const reading = await normaliseLoudness(measured, run);
    expect(made.map((s) => [s.gain.toFixed(1), s.oversampled])).toEqual([
      ['10.0', false],
      ['11.2', false],
      ['11.2', true],
      ['12.8', true],
    ]);
    expect(reading).toEqual({ integrated: expect.closeTo(-16, 5), truePeak: -2 });
  });

  it('takes what is still over off after the limiter, a tenth under the bound, and never publishes over it', async () => {
    const over = runs(({ after }) => ({ integrated: -16 + after, truePeak: -1.2 + after }));
    const reading = await normaliseLoudness(measured, over.run);
    expect(over.made.at(-1)).toMatchObject({ oversampled: true, after: expect.closeTo(-0.5, 5) });
    expect(reading.truePeak).toBeCloseTo(-1.7, 5);
    const stuck = runs(() => ({ integrated: -16, truePeak: -1.2 }));
    await expect(normaliseLoudness(measured, stuck.run)).rejects.toThrow(/true peak reads -1.2 dBTP after its correction/);
    expect(stuck.made).toHaveLength(3);
  });

  it('fails where a run has no loudness to measure', async () => {
    const { run } = runs(() => undefined);
    await expect(normaliseLoudness(measured, run)).rejects.toThrow('no loudness to measure');
  });
});
