/**
 * Captions: the cue rules, and the WebVTT and SRT files (read back by ffmpeg's own demuxers).
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPTION_LIMITS, type Cue, cuesFromWords, isBurnable, joinClipCues, type TimedWord, toSrt, toWebVtt } from '#domain/captions';
import { runFfmpeg } from '#functions/media/media.ts';
import { scratchDir, shown } from '../../support/captions.ts';
import { wordsOf } from '../../support/silences.ts';

const root = scratchDir('vidbot-captions-');

/** Words of a text with made-up, increasing times (0.3 s each, a 0.05 s gap). */
const timed = (text: string): TimedWord[] =>
  wordsOf(text).map((w, i) => ({ start: w.start, end: w.end, startSeconds: i * 0.35, endSeconds: i * 0.35 + 0.3 }));

const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');

describe('cues from timed words', () => {
  it('at most two lines of at most 42 characters, in order, never overlapping, the text exactly as written', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9'’éüß,.!?;:«»"()-]{1,48}$/).filter((w) => /[\p{L}\p{N}]/u.test(w));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 120 }), fc.constantFrom(' ', '  ', '\n', ' \t '), (words, space) => {
        const text = words.join(space);
        const cues = cuesFromWords(text, timed(text), 0.6);
        for (const cue of cues) {
          expect(cue.lines.length).toBeGreaterThanOrEqual(1);
          expect(cue.lines.length).toBeLessThanOrEqual(CAPTION_LIMITS.maxLines);
          for (const line of cue.lines) expect([...line].length).toBeLessThanOrEqual(CAPTION_LIMITS.maxLineChars);
          expect(cue.endSeconds).toBeGreaterThan(cue.startSeconds);
          expect(cue.startSeconds).toBeGreaterThanOrEqual(0.6);
        }
        cues.slice(1).forEach((cue, i) => expect(cue.startSeconds).toBeGreaterThanOrEqual(cues[i]!.endSeconds));
        expect(shown(cues)).toBe(squeeze(text));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps punctuation, quotes and accents as written, closes a cue at a sentence end, and cuts a word longer than a line', () => {
    const text = '«Déjà vu», she said — twice! It’s 5 o’clock.\n\nSee https://example.com/a/very/long/path/that/goes/on/and/on/forever now.';
    const cues = cuesFromWords(text, timed(text));
    expect(cues.map((c) => c.lines)).toEqual([
      ['«Déjà vu», she said — twice!'],
      ['It’s 5 o’clock.'],
      ['See', 'https://example.com/a/very/long/path/that/'],
      ['goes/on/and/on/forever now.'],
    ]);
  });

  it('a cue that fills up mid-sentence is cut after a clause end in its second half', () => {
    const text = 'Your words appear on screen as she says them, on a box that reads on any background.';
    expect(cuesFromWords(text, timed(text)).map((c) => c.lines)).toEqual([
      ['Your words appear on screen as she says', 'them,'],
      ['on a box that reads on any background.'],
    ]);
    // Without a clause end to cut at, the lines are simply filled.
    const plain = 'Your words appear on screen as she says them on a box that reads on any background.';
    expect(cuesFromWords(plain, timed(plain)).map((c) => c.lines)).toEqual([
      ['Your words appear on screen as she says', 'them on a box that reads on any'],
      ['background.'],
    ]);
  });

  it('CJK text without spaces gets no invented spaces', () => {
    const text = '你好。欢迎来到视频机器人';
    const words: TimedWord[] = [
      { start: 0, end: 2, startSeconds: 0, endSeconds: 0.5 },
      { start: 3, end: 5, startSeconds: 0.6, endSeconds: 1 },
      { start: 5, end: 7, startSeconds: 1, endSeconds: 1.4 },
      { start: 7, end: 12, startSeconds: 1.4, endSeconds: 2 },
    ];
    expect(cuesFromWords(text, words).map((c) => c.lines)).toEqual([['你好。'], ['欢迎来到视频机器人']]);
  });

  it('a long pause starts a new cue; a short cue is held for 1.2 s unless the next one starts sooner', () => {
    const text = 'one two three four';
    const words: TimedWord[] = [
      { start: 0, end: 3, startSeconds: 0, endSeconds: 0.2 },
      { start: 4, end: 7, startSeconds: 0.25, endSeconds: 0.4 },
      { start: 8, end: 13, startSeconds: 2, endSeconds: 2.3 },
      { start: 14, end: 18, startSeconds: 2.35, endSeconds: 2.6 },
    ];
    expect(cuesFromWords(text, words)).toEqual([
      { startSeconds: 0, endSeconds: 1.2, lines: ['one two'] },
      { startSeconds: 2, endSeconds: 3.2, lines: ['three four'] },
    ]);
  });

  it("a video's cues are its clips' cues shifted to each clip's start, and none outlasts its clip", () => {
    const joined = joinClipCues([
      {
        cues: [
          { startSeconds: 0.6, endSeconds: 2.5, lines: ['first'] },
          { startSeconds: 2.5, endSeconds: 3.4, lines: ['held past the end'] },
        ],
        durationSeconds: 3,
      },
      { cues: [{ startSeconds: 0.2, endSeconds: 1, lines: ['second'] }], durationSeconds: 1.5 },
    ]);
    expect(joined).toEqual([
      { startSeconds: 0.6, endSeconds: 2.5, lines: ['first'] },
      { startSeconds: 2.5, endSeconds: 3, lines: ['held past the end'] },
      { startSeconds: 3.2, endSeconds: 4, lines: ['second'] },
    ]);
  });

  it('burns Latin, Greek and Cyrillic; not Arabic, Hebrew or CJK (the font has no glyphs for them)', () => {
    expect(isBurnable('Hello — déjà vu, 5 €! Καλημέρα. Привет.')).toBe(true);
    for (const text of ['مرحبا بكم', 'שלום עולם', '你好', 'こんにちは', 'नमस्ते']) expect(isBurnable(text)).toBe(false);
  });
});

describe('WebVTT and SRT', () => {
  const cues: Cue[] = [
    { startSeconds: 0.6, endSeconds: 2.04, lines: ['Hello <there> & you -->', 'second line'] },
    { startSeconds: 3661.5, endSeconds: 3662.25, lines: ['an hour in'] },
  ];

  it('writes the formats by their rules', () => {
    expect(toWebVtt(cues)).toBe(
      'WEBVTT\n\n1\n00:00:00.600 --> 00:00:02.040\nHello &lt;there&gt; &amp; you --&gt;\nsecond line\n\n2\n01:01:01.500 --> 01:01:02.250\nan hour in\n\n',
    );
    expect(toSrt(cues)).toBe(
      '1\r\n00:00:00,600 --> 00:00:02,040\r\nHello <\u200bthere> & you --\u200b>\r\nsecond line\r\n\r\n2\r\n01:01:01,500 --> 01:01:02,250\r\nan hour in\r\n\r\n',
    );
    expect(toWebVtt([])).toBe('WEBVTT\n\n');
  });

  it("ffmpeg's own WebVTT and SubRip demuxers read them back: same cues, same times", async () => {
    for (const [name, body] of [
      ['c.vtt', toWebVtt(cues)],
      ['c.srt', toSrt(cues)],
    ] as const) {
      const path = join(root, name);
      writeFileSync(path, body);
      const { stdout } = await runFfmpeg(['-i', path, '-f', 'srt', '-'], { budgetSeconds: 30, captureStdout: true });
      const back = stdout.toString('utf8').replace(/\r\n/g, '\n');
      expect(back, name).toContain('00:00:00,600 --> 00:00:02,040');
      expect(back, name).toContain('01:01:01,500 --> 01:01:02,250');
      expect(back, name).toContain('second line');
      expect(back, name).toContain('an hour in');
    }
  });
});
