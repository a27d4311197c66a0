import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { cuesFromWords, parseClipCues, serialiseClipCues } from '#domain/captions';
import { speechScriptOf } from '#domain/lexicon';
import { joinClipWords, spokenWords, toWordsJson, wordsOfCues } from '#domain/spoken-words';
import { voiceToSpeak } from '#domain/voices';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';

const workDir = mkdtempSync(join(tmpdir(), 'vidbot-words-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("a video's spoken words (output.captions.words_url)", () => {
  it('names every word a synthesised clip says, as its text writes it, in order, timed after the entry', async () => {
    const ava = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
    const script = speechScriptOf('Welcome, <emphasis>dear</emphasis> friends: it’s 3 o’clock!');
    const speech = await new EspeakSpeechEngine().synthesize(script, voiceToSpeak(ava.voice, undefined, { polly: false }), workDir);
    const words = spokenWords(script.shown, speech.words, 0.6);
    expect(words.map((w) => w.text)).toEqual(['Welcome', 'dear', 'friends', 'it’s', '3', 'o’clock']);
    expect(words[0]!.startSeconds).toBeGreaterThanOrEqual(0.6);
    for (const [i, w] of words.entries()) {
      expect(w.endSeconds).toBeGreaterThan(w.startSeconds);
      if (i) expect(w.startSeconds).toBeGreaterThanOrEqual(words[i - 1]!.startSeconds);
    }
    expect(words.at(-1)!.endSeconds).toBeLessThanOrEqual(speech.durationSeconds + 0.6 + 0.001);
  });

  it("joins the clips' words with each clip's start, names the clip by its index, and keeps none past its clip's end", () => {
    const clipWords = [
      {
        clip: 0,
        durationSeconds: 2,
        words: [
          { text: 'Hello', startSeconds: 0.6, endSeconds: 1.1 },
          { text: 'there', startSeconds: 1.2, endSeconds: 2.4 },
        ],
      },
      {
        clip: 1,
        durationSeconds: 3,
        words: [
          { text: 'Again', startSeconds: 0.7, endSeconds: 1.3 },
          { text: 'late', startSeconds: 3.1, endSeconds: 3.5 },
        ],
      },
    ];
    const joined = joinClipWords(clipWords);
    expect(joined).toEqual([
      { text: 'Hello', start: 0.6, end: 1.1, clip: 0 },
      { text: 'there', start: 1.2, end: 2, clip: 0 },
      { text: 'Again', start: 2.7, end: 3.3, clip: 1 },
    ]);
    expect(JSON.parse(toWordsJson(joined))).toEqual(joined);
  });

  it("stores a clip's words beside its cues, and reads a clip stored before words were kept from its cues", () => {
    const text = 'One two. Three';
    const timed = [
      { start: 0, end: 3, startSeconds: 0, endSeconds: 0.4 },
      { start: 4, end: 7, startSeconds: 0.4, endSeconds: 0.8 },
      { start: 9, end: 14, startSeconds: 1, endSeconds: 1.5 },
    ];
    const cues = cuesFromWords(text, timed);
    const words = spokenWords(text, timed);
    expect(parseClipCues(serialiseClipCues(cues, words))).toEqual({ cues, words });
    const old = parseClipCues(JSON.stringify({ cues }));
    expect(old.words).toBeUndefined();
    const fromCues = wordsOfCues(old.cues);
    expect(fromCues.map((w) => w.text)).toEqual(['One', 'two.', 'Three']);
    expect(fromCues[0]!.startSeconds).toBe(0);
    expect(fromCues[2]!.startSeconds).toBe(cues[1]!.startSeconds);
  });

  it('refuses a stored words list that is not one (a word without its time)', () => {
    expect(() => parseClipCues(JSON.stringify({ cues: [], words: [{ text: 'x' }] }))).toThrow();
  });
});
