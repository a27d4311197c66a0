/**
 * Captions: the cue rules, the WebVTT and SRT files (read back by ffmpeg's own demuxers), espeak-ng's word
 * timings against the audio, and captions burned into real frames at 1280x720 and in a portrait frame.
 */

import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { CAPTION_LIMITS, type Cue, cuesFromWords, isBurnable, joinClipCues, type TimedWord, toSrt, toWebVtt } from '#domain/captions';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { captionFontPath, captionsScript, placeCaptions } from '#functions/render/engine/burned-captions.ts';
import { BotCompositor } from '#functions/render/engine/compositor.ts';
import { type RenderClipInput, renderClip } from '#functions/render/engine/index.ts';
import { botHeightFor, layoutFor } from '#functions/render/engine/layout.ts';

const FRAME = frameSizeOf(DEFAULT_SHAPE);

import { runFfmpeg } from '#functions/media/media.ts';
import { loadSprites } from '#functions/render/engine/sprites.ts';
import { readWav } from '#functions/render/engine/wav.ts';
import { alignWords, silences, wordsOf } from '#functions/render/speech/alignment.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { BENCH_TEXT } from '#infra/scripts/bench-support.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const root = mkdtempSync(join(tmpdir(), 'vidbot-captions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;

/** Words of a text with made-up, increasing times (0.3 s each, a 0.05 s gap). */
const timed = (text: string): TimedWord[] =>
  wordsOf(text).map((w, i) => ({ start: w.start, end: w.end, startSeconds: i * 0.35, endSeconds: i * 0.35 + 0.3 }));
const squeeze = (text: string) => text.trim().replace(/\s+/g, ' ');
const shown = (cues: Cue[]) => cues.map((c) => c.lines.join(' ')).join(' ');

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

describe('espeak-ng word timings', () => {
  it('sentence and clause starts land on the speech onsets after the pauses; every word in order, inside the audio', async () => {
    const text = 'Hello there! Welcome to vidbot, the talking presenter. It turns your text into video, in 2026 and beyond. Ready?';
    const workDir = mkdtempSync(join(root, 'espeak-'));
    const result = await new EspeakSpeechEngine().synthesize(text, voiceToSpeak(ava.voice, undefined, { polly: false }), workDir);
    expect(result.words.map((w) => text.slice(w.start, w.end))).toEqual(text.split(' '));
    result.words.slice(1).forEach((w, i) => expect(w.startSeconds).toBeGreaterThanOrEqual(result.words[i]!.endSeconds - 1e-6));
    expect(result.words.at(-1)!.endSeconds).toBeLessThanOrEqual(result.durationSeconds);

    const pcm = readWav(result.wavPath);
    const { gaps, soundStart } = silences(pcm.samples, pcm.sampleRate);
    const onsets = [soundStart, ...gaps.filter((g) => g.end - g.start >= 0.12).map((g) => g.end)];
    // The first word of each clause (after , . ! ?) starts within 50 ms of an onset.
    const clauseStarts = result.words.filter((_w, i) => i === 0 || /[,.!?]$/.test(text.slice(result.words[i - 1]!.start, result.words[i - 1]!.end)));
    expect(clauseStarts).toHaveLength(6);
    for (const word of clauseStarts) {
      const nearest = Math.min(...onsets.map((o) => Math.abs(o - word.startSeconds)));
      expect(nearest, `"${text.slice(word.start, word.end)}" at ${word.startSeconds}`).toBeLessThanOrEqual(0.05);
    }
  });

  it.each(BUILT_IN_BOTS.map((b) => [b.uid, b] as const))(
    'on the 60-second benchmark text, every clause of %s starts within 50 ms of a speech onset',
    async (_uid, bot) => {
      const result = await new EspeakSpeechEngine().synthesize(
        BENCH_TEXT,
        voiceToSpeak(bot.voice, undefined, { polly: false }),
        mkdtempSync(join(root, 'espeak-')),
      );
      const pcm = readWav(result.wavPath);
      const { gaps, soundStart } = silences(pcm.samples, pcm.sampleRate);
      const onsets = [soundStart, ...gaps.map((g) => g.end)];
      const clauseStarts = result.words.filter(
        (_w, i) => i === 0 || /[,.!?]$/.test(BENCH_TEXT.slice(result.words[i - 1]!.start, result.words[i - 1]!.end)),
      );
      expect(clauseStarts).toHaveLength(26);
      const off = clauseStarts.filter((w) => Math.min(...onsets.map((o) => Math.abs(o - w.startSeconds))) > 0.05);
      expect(off.map((w) => BENCH_TEXT.slice(w.start, w.end))).toEqual([]);
    },
  );

  it('offsets point into the text as given, control characters and runs of spaces included', async () => {
    const text = '  Line one,\n\n\tline\u0007two.  ';
    const result = await new EspeakSpeechEngine().synthesize(
      text,
      voiceToSpeak(ava.voice, undefined, { polly: false }),
      mkdtempSync(join(root, 'espeak-')),
    );
    expect(result.words.map((w) => text.slice(w.start, w.end))).toEqual(['Line', 'one,', 'line', 'two.']);
  });

  it('aligns on silence alone: a synthetic voice of three bursts with pauses gets its three clauses there', () => {
    const rate = 16000;
    const samples = new Float32Array(rate * 3);
    // Sound 0.2-0.9 s, 1.3-2.0 s, 2.3-2.8 s.
    for (const [a, b] of [
      [0.2, 0.9],
      [1.3, 2.0],
      [2.3, 2.8],
    ] as const)
      for (let i = a * rate; i < b * rate; i++) samples[i] = Math.sin(i / 5) * 0.5;
    const words = alignWords('One two, three four. Five!', samples, rate);
    expect(words.map((w) => [w.startSeconds, w.endSeconds])).toEqual([
      [0.2, 0.55],
      [0.55, 0.9],
      [1.3, 1.689],
      [1.689, 2],
      [2.3, 2.8],
    ]);
  });
});

/** Draws cues over a plain frame with the ass filter and the caption font; the rectangle of changed pixels. */
async function drawnBox(
  cues: Cue[],
  frame: { width: number; height: number },
  bot: { x: number; y: number; width: number; height: number },
  longest: number,
) {
  const place = placeCaptions(frame, bot, longest);
  const dir = mkdtempSync(join(root, 'ass-'));
  writeFileSync(join(dir, 'c.ass'), captionsScript(cues, frame, place));
  copyFileSync(captionFontPath(), join(dir, 'caption-font.ttf'));
  const { stdout } = await runFfmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x8090a0:s=${frame.width}x${frame.height}:d=1`,
      '-vf',
      `ass=filename=${dir}/c.ass:fontsdir=${dir}`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { budgetSeconds: 30, captureStdout: true },
  );
  const changed = { top: Infinity, bottom: -1, left: Infinity, right: -1, fontSize: place.fontSize, place };
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const [r, g, b] = pixel(stdout, x, y, frame.width);
      if (Math.abs(r - 0x80) + Math.abs(g - 0x90) + Math.abs(b - 0xa0) <= 24) continue;
      changed.top = Math.min(changed.top, y);
      changed.bottom = Math.max(changed.bottom, y);
      changed.left = Math.min(changed.left, x);
      changed.right = Math.max(changed.right, x);
    }
  }
  return changed;
}

describe('burned captions', () => {
  it('are placed in the safe area, clear of the presenter, higher up in a portrait frame', () => {
    const landscape = { width: 1280, height: 720 };
    const bottomRight = { x: 980, y: 370, width: 276, height: 326 };
    expect(placeCaptions(landscape, { x: 24, y: 24, width: 276, height: 326 })).toMatchObject({
      where: 'bottom',
      left: 64,
      right: 1216,
      bottom: 677,
    });
    const beside = placeCaptions(landscape, bottomRight);
    expect(beside).toMatchObject({ where: 'beside', left: 64, bottom: 677 });
    expect(beside.right).toBeLessThanOrEqual(bottomRight.x);
    const portrait = { width: 720, height: 1280 };
    // A presenter across the bottom of a vertical frame: the captions go above it.
    const above = placeCaptions(portrait, { x: 160, y: 880, width: 400, height: 400 });
    expect(above).toMatchObject({ where: 'above', bottom: 880 - 22 });
    // Nothing in the way: 20 % of the height up from the bottom, not 6 %.
    expect(placeCaptions(portrait, { x: 24, y: 24, width: 200, height: 240 })).toMatchObject({ where: 'bottom', bottom: 1024 });
  });

  it('draws legible captions into a 1280x720 clip where they were placed, and nowhere near the presenter', async () => {
    const text = 'Captions are drawn on a box. They stay clear of the presenter.';
    const base: Omit<RenderClipInput, 'workDir' | 'captions'> = {
      bot: ava,
      text,
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: { entry: 'fade_in' },
      mode: 'video',
      frame: FRAME,
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      speech: new EspeakSpeechEngine(),
    };
    const plain = await renderClip({ ...base, workDir: mkdtempSync(join(root, 'plain-')) });
    const burned = await renderClip({ ...base, workDir: mkdtempSync(join(root, 'burn-')), captions: 'burn' });
    expect(plain.captionsBurned).toBe(false);
    expect(burned.captionsBurned).toBe(true);
    expect(burned.cues).toEqual(plain.cues);
    expect(burned.cues[0]!.startSeconds).toBeGreaterThanOrEqual(0.6);

    const sprites = loadSprites(ava.look, botHeightFor(FRAME, 'bottom-right'));
    const compositor = new BotCompositor(sprites, { withPanel: true });
    const bot = layoutFor(FRAME, 'bottom-right', sprites.manifest);
    const longest = Math.max(...burned.cues.flatMap((c) => c.lines.map((l) => l.length)));
    const place = placeCaptions(FRAME, { x: bot.x, y: bot.y, width: compositor.width, height: compositor.height }, longest);
    expect(place.where).toBe('beside');

    for (const cue of burned.cues) {
      const at = (cue.startSeconds + cue.endSeconds) / 2;
      const [a, b] = [await frameRgb(plain.path, at), await frameRgb(burned.path, at)];
      let inside = 0;
      let white = 0;
      let outside = 0;
      for (let y = 0; y < FRAME.height; y += 2) {
        for (let x = 0; x < FRAME.width; x += 2) {
          const [p, q] = [pixel(a, x, y), pixel(b, x, y)];
          if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) <= 30) continue;
          const box = x >= place.left && x < place.right && y < place.bottom && y >= place.bottom - place.fontSize * 3.2;
          if (box) inside++;
          // Elsewhere only the encoder's noise may differ (bits spent on the captions change its choices).
          else if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) > 90) outside++;
          if (box && q[0] > 220 && q[1] > 220 && q[2] > 220) white++;
        }
      }
      // The caption's box and its white letters are there, and nothing was drawn elsewhere (the presenter included).
      expect(inside, `cue "${cue.lines.join(' / ')}"`).toBeGreaterThan(1500);
      expect(white).toBeGreaterThan(150);
      // (A caption drawn there would be thousands of pixels; the encoder's noise at sharp edges is a few.)
      expect(outside).toBeLessThan(20);
    }
  }, 120_000);

  it('does not burn text the font cannot draw (here Hebrew), and still makes its cues in that text', async () => {
    const text = 'שלום עולם, ברוכים הבאים.';
    const clip = await renderClip({
      bot: ava,
      text,
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: {},
      mode: 'video',
      frame: FRAME,
      voice: voiceToSpeak(ava.voice, undefined, { polly: false }),
      speech: new EspeakSpeechEngine(),
      captions: 'burn',
      workDir: mkdtempSync(join(root, 'hebrew-')),
    });
    expect(clip.captionsBurned).toBe(false);
    expect(shown(clip.cues)).toBe(text);
  }, 60_000);

  it("draws a caller's braces and backslashes as text, never as ASS markup (no size change, no extra line)", async () => {
    const line = '{\\fs120}big} \\N x \\{ back\\slash';
    const box = await drawnBox(
      [{ startSeconds: 0, endSeconds: 2, lines: [line] }],
      { width: 1280, height: 720 },
      { x: 1000, y: 400, width: 250, height: 300 },
      line.length,
    );
    expect(box.bottom - box.top).toBeLessThan(box.fontSize * 1.6);
    expect(box.right - box.left).toBeGreaterThan(box.fontSize * 8);
  });

  it('draws in a 720x1280 portrait frame with the same font and layout rules', async () => {
    const frame = { width: 720, height: 1280 };
    const bot = { x: 160, y: 880, width: 400, height: 400 };
    const cues: Cue[] = [{ startSeconds: 0, endSeconds: 2, lines: ['Vertical video, captions above', 'the presenter and inside the margins'] }];
    const changed = await drawnBox(cues, frame, bot, 36);
    const place = changed.place;
    expect(place.where).toBe('above');
    // Two lines drawn above the presenter, inside the 5 % side margins, none of it on the presenter.
    expect(changed.bottom).toBeLessThan(bot.y);
    expect(changed.bottom).toBeGreaterThan(bot.y - 60);
    expect(changed.bottom - changed.top).toBeGreaterThan(place.fontSize * 2);
    expect(changed.left).toBeGreaterThanOrEqual(36);
    expect(changed.right).toBeLessThan(720 - 36);
  });
});
