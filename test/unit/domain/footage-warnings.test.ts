/**
 * What a video bot's recording lacks (functions/domain/footage-warnings.ts): each warning from what the preparation
 * found (the atlas's mouth frames, the listening loop, the frames without a face), none for a recording that shows
 * everything. The preparation of a real recording that lacks some is in test/integration/prepare/footage-look.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { footageWarnings } from '#domain/footage-warnings';
import type { FootageManifest, MouthSample } from '#domain/look';

const sample = (frame: string) => ({ frame }) as MouthSample;
const loop = { file: 'listen.mp4', from: 0, to: 90 };
const everything = ['m0', 'm1', 'm2', 'm3', 'm4', 'r1', 'w2', 'fv'].map(sample);
const footage = (change: Partial<FootageManifest>) => ({ samples: everything, listen: loop, fps: 30, ...change });
const codes = (change: Partial<FootageManifest>) => footageWarnings(footage(change)).map((w) => w.code);

describe("a video bot's warnings", () => {
  it('none when the recording shows every kind of mouth, a listening pause and the face throughout', () => {
    expect(footageWarnings(footage({}))).toEqual([]);
    // One of each kind is enough: r2 alone rounds, w1 alone spreads, m3 alone opens wide.
    expect(codes({ samples: ['m0', 'm1', 'm3', 'r2', 'w1'].map(sample) })).toEqual([]);
  });

  it('names each missing kind of mouth', () => {
    expect(codes({ samples: ['m0', 'm1', 'm2', 'm3', 'w1'].map(sample) })).toEqual(['no_rounded_lips']);
    expect(codes({ samples: ['m0', 'm1', 'm2', 'm4', 'r1'].map(sample) })).toEqual(['no_spread_lips']);
    expect(codes({ samples: ['m0', 'm1', 'm2', 'r1', 'w1'].map(sample) })).toEqual(['no_open_mouth']);
    expect(codes({ samples: ['m0', 'm1'].map(sample) })).toEqual(['no_rounded_lips', 'no_spread_lips', 'no_open_mouth']);
  });

  it('names a recording without a listening loop', () => {
    expect(codes({ listen: undefined })).toEqual(['no_listening_pause']);
  });

  it('names the seconds without a face from half a second in all, not less', () => {
    expect(
      codes({
        unseen: [
          [10, 20],
          [40, 44],
        ],
      }),
    ).toEqual([]);
    const [warning] = footageWarnings(
      footage({
        unseen: [
          [10, 20],
          [40, 45],
        ],
      }),
    );
    expect(warning).toMatchObject({ code: 'face_unseen' });
    expect(warning!.message).toContain('for 0.5 s of the recording');
  });

  it('says what to record to fix each one, and nothing of the service inside', () => {
    const all = footageWarnings({ samples: [sample('m0')], fps: 30, unseen: [[0, 60]] });
    expect(all.map((w) => w.code)).toEqual(['no_listening_pause', 'no_rounded_lips', 'no_spread_lips', 'no_open_mouth', 'face_unseen']);
    for (const { message } of all) {
      expect(message).toMatch(/; (record|say|speak|look)/);
      expect(message).not.toMatch(/m[0-4]|r[12]|w[12]|atlas|sample|loop/);
    }
  });
});
