/**
 * The video bot's presenter without footage: where a `full` recording stands, and the closures made firm on the
 * frames of every m, b and p (docs/video-bots.md, "How a clip is drawn").
 */
import { describe, expect, it } from 'vitest';
import { frameSizeOf } from '#domain/shape';
import { mouthFrameOf } from '#functions/prepare/footage/mouth-measures.ts';
import type { MouthFrame } from '#functions/render/engine/animation.ts';
import { clipTiming } from '#functions/render/engine/clip-timeline.ts';
import { fullFootageBox } from '#functions/render/engine/footage/footage-bot.ts';
import { firmClosures, smallRoundings } from '#functions/render/engine/footage/footage-mouth.ts';
import type { SpeechResult } from '#functions/render/engine/types.ts';

describe('a full video bot', () => {
  it('fills a frame of its own aspect: a 9:16 recording in a 9:16 video, a 16:9 one in a 16:9 video', () => {
    expect(fullFootageBox(frameSizeOf({ aspectRatio: '9:16', resolution: '1080p' }), 'center', { width: 720, height: 1280 })).toEqual({
      x: 0,
      y: 0,
      width: 1080,
      height: 1920,
    });
    expect(fullFootageBox(frameSizeOf({ aspectRatio: '16:9', resolution: '720p' }), 'bottom-left', { width: 1280, height: 720 })).toEqual({
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
    });
  });

  it('shows another aspect whole, as large as the frame holds it, on the bottom edge at the position’s side', () => {
    const tall = frameSizeOf({ aspectRatio: '9:16', resolution: '720p' });
    const wide = fullFootageBox(tall, 'top-right', { width: 1280, height: 720 });
    expect(wide).toEqual({ x: 0, y: tall.height - 406, width: 720, height: 406 });
    const square = fullFootageBox(frameSizeOf({ aspectRatio: '16:9', resolution: '720p' }), 'bottom-right', { width: 700, height: 700 });
    expect(square).toEqual({ x: 1280 - 720, y: 0, width: 720, height: 720 });
  });
});

const speechWith = (phonemes: [string, number, number][]): SpeechResult =>
  ({
    wavPath: '',
    durationSeconds: 2,
    phonemes: phonemes.map(([ipa, startSeconds, endSeconds]) => ({ ipa, startSeconds, endSeconds, stress: 0 })),
  }) as SpeechResult;

describe('the closures of a video bot', () => {
  it('shows an m, b or p planned as closed-then-opening closed and unmixed on its frames', () => {
    const planned: MouthFrame[] = Array.from({ length: 60 }, () => ({ frame: 'm2' }));
    planned[19] = { frame: 'm0', toward: { frame: 'm1', amount: 0.6 } };
    const mouth = firmClosures(planned, speechWith([['p', 19.4 / 30, 20.4 / 30]]), clipTiming(2, {}));
    expect(mouth[19]).toEqual({ frame: 'm0' });
    expect(mouth[20]).toEqual({ frame: 'm2' });
  });

  it('closes the middle frame of a bilabial none of whose frames was closed, after an entry transition too', () => {
    const timing = clipTiming(2, { entry: 'fade_in' });
    const planned: MouthFrame[] = Array.from({ length: timing.frames }, () => ({ frame: 'm3' }));
    const mouth = firmClosures(planned, speechWith([['b', 1.0, 1.1]]), timing);
    const closed = mouth.flatMap((m, i) => (m.frame === 'm0' ? [i] : []));
    expect(closed).toEqual([timing.entryFrames + 31]);
  });

  it('leaves a clip without bilabials as planned', () => {
    const planned: MouthFrame[] = [{ frame: 'm1' }, { frame: 'm0', toward: { frame: 'w1', amount: 0.6 } }, { frame: 'w1' }];
    expect(firmClosures(planned, speechWith([['iː', 0, 0.1]]), clipTiming(0.1, {}))).toEqual(planned);
  });
});

describe('the rounded sounds of a video bot', () => {
  it('shows a loud "oo" with the small rounded mouth (r1), mixes included, and leaves an "o" open (r2)', () => {
    // "oo" 0.5-0.7 s (its frames with the lips 35 ms ahead: 14 to 19), then "o" 0.7-0.9 s (20 to 25).
    const planned: MouthFrame[] = Array.from({ length: 40 }, () => ({ frame: 'r2' }));
    planned[14] = { frame: 'm2', toward: { frame: 'r2', amount: 0.6 } };
    const mouth = smallRoundings(
      planned,
      speechWith([
        ['uː', 0.5, 0.7],
        ['oʊ', 0.7, 0.9],
      ]),
      clipTiming(2, {}),
    );
    expect(mouth[13]).toEqual({ frame: 'r2' });
    expect(mouth[14]).toEqual({ frame: 'm2', toward: { frame: 'r1', amount: 0.6 } });
    expect(mouth.slice(15, 20).every((m) => m.frame === 'r1')).toBe(true);
    expect(mouth.slice(20, 26).every((m) => m.frame === 'r2')).toBe(true);
  });

  it('finds the rounded sounds of Polly’s visemes too, after an entry transition', () => {
    const timing = clipTiming(1, { entry: 'fade_in' });
    const planned: MouthFrame[] = Array.from({ length: timing.frames }, () => ({ frame: 'r2' }));
    const speech = {
      wavPath: '',
      durationSeconds: 1,
      visemes: [
        { timeMs: 300, value: 'u' },
        { timeMs: 500, value: 'O' },
      ],
    } as SpeechResult;
    const rounded = smallRoundings(planned, speech, timing).flatMap((m, i) => (m.frame === 'r1' ? [i - timing.entryFrames] : []));
    expect(rounded).toEqual([8, 9, 10, 11, 12, 13]);
  });
});

describe('the atlas’s filing of a measured mouth', () => {
  const range = { restWidth: 0.85, openings: [0.1, 0.15, 0.2, 0.25] as [number, number, number, number] };
  it('files closed lips at the resting width as m0, the more closed the better', () => {
    expect(mouthFrameOf({ opening: 0.01, width: 0.85 }, range)?.frame).toBe('m0');
    expect(mouthFrameOf({ opening: 0.01, width: 0.85 }, range)!.distance).toBeLessThan(mouthFrameOf({ opening: 0.03, width: 0.85 }, range)!.distance);
    expect(mouthFrameOf({ opening: 0.01, width: 0.7 }, range)).toBeUndefined();
  });

  it('files a rounded mouth by its small opening ("oo" r1, "o" r2) and a wide rounded opening as no rounded shape', () => {
    expect(mouthFrameOf({ opening: 0.045, width: 0.7 }, range)?.frame).toBe('r1');
    expect(mouthFrameOf({ opening: 0.1, width: 0.7 }, range)?.frame).toBe('r2');
    expect(mouthFrameOf({ opening: 0.2, width: 0.7 }, range)).toBeUndefined();
  });

  it('files a spread mouth half open as "ee" (w1), open as w2: "ee" more open than "oo"', () => {
    expect(mouthFrameOf({ opening: 0.15, width: 0.97 }, range)?.frame).toBe('w1');
    expect(mouthFrameOf({ opening: 0.21, width: 0.97 }, range)?.frame).toBe('w2');
  });
});
