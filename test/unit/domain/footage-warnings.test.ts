/**
 * What a video bot's recording lacks (functions/domain/footage-warnings.ts): each warning from what the preparation
 * found (the look's mouth shapes, the atlas's open levels, the listening loop, the frames without a face), none for
 * a recording that shows everything. That the preparation stores them and the bot.ready event carries them:
 * test/unit/prepare/prepare-job-warnings.test.ts; on a real recording: test/e2e/readme.test.ts and the console's.
 */
import { describe, expect, it } from 'vitest';
import { footageWarnings } from '#domain/footage-warnings';
import type { BotManifest, FootageManifest, MouthSample, MouthShape } from '#domain/look';

const sample = (frame: string) => ({ frame }) as MouthSample;
const loop = { file: 'listen.mp4', from: 0, to: 90 };
const levels = ['m0', 'm1', 'm2', 'm3', 'm4'].map(sample);
const look = (change: Partial<FootageManifest> = {}, mouthShapes: MouthShape[] = ['round', 'wide', 'fv']) =>
  ({ mouthShapes, footage: { samples: levels, listen: loop, fps: 30, ...change } }) as Pick<BotManifest, 'mouthShapes' | 'footage'>;
const codes = (manifest: Pick<BotManifest, 'mouthShapes' | 'footage'>) => footageWarnings(manifest).map((w) => w.code);

describe("a video bot's warnings", () => {
  it('none when the recording shows every kind of mouth, a listening pause and the face throughout; none for a drawing', () => {
    expect(footageWarnings(look())).toEqual([]);
    // One wide-open level is enough: m3 alone, or m4 alone.
    expect(codes(look({ samples: ['m0', 'm1', 'm3'].map(sample) }))).toEqual([]);
    expect(codes(look({ samples: ['m0', 'm1', 'm4'].map(sample) }))).toEqual([]);
    expect(footageWarnings({ mouthShapes: [] })).toEqual([]);
  });

  it('names each missing kind of mouth, by the shapes the lip sync reads and the levels the atlas has', () => {
    expect(codes(look({}, ['wide', 'fv']))).toEqual(['no_rounded_lips']);
    expect(codes(look({}, ['round']))).toEqual(['no_spread_lips']);
    expect(codes(look({ samples: ['m0', 'm1', 'm2'].map(sample) }))).toEqual(['no_open_mouth']);
    expect(codes(look({ samples: ['m0', 'm1'].map(sample) }, []))).toEqual(['no_rounded_lips', 'no_spread_lips', 'no_open_mouth']);
  });

  it('names a recording without a listening loop, with the shortest listening stretch that makes one', () => {
    const [warning, ...rest] = footageWarnings(look({ listen: undefined }));
    expect(rest).toEqual([]);
    expect(warning).toMatchObject({ code: 'no_listening_pause' });
    expect(warning!.message).toContain('no pause of 3 s or more');
  });

  it('names the seconds without a face from half a second in all, not less', () => {
    expect(
      codes(
        look({
          unseen: [
            [10, 20],
            [40, 44],
          ],
        }),
      ),
    ).toEqual([]);
    const [warning] = footageWarnings(
      look({
        unseen: [
          [10, 20],
          [40, 45],
        ],
      }),
    );
    expect(warning).toMatchObject({ code: 'face_unseen' });
    expect(warning!.message).toContain('for 0.5 s of the recording');
  });

  it('says what the clips show instead and what to record, and nothing of the service inside', () => {
    const all = footageWarnings(look({ samples: [sample('m0')], listen: undefined, unseen: [[0, 60]] }, []));
    expect(all.map((w) => w.code)).toEqual(['no_listening_pause', 'no_rounded_lips', 'no_spread_lips', 'no_open_mouth', 'face_unseen']);
    expect(all[1]!.message).toMatch(/"oo" and "w" show a slightly open mouth, "o" a half-open one/);
    expect(all[2]!.message).toMatch(/"ee" shows a slightly open mouth, "eh" and the "a" of "cat" a half-open one/);
    for (const { message } of all) {
      expect(message).toMatch(/; (record|say|speak|look)/);
      expect(message).not.toMatch(/m[0-4]|r[12]|w[12]|atlas|sample|loop/);
    }
  });
});
