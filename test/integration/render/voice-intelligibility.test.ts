/**
 * The built-in English bots' offline voices are intelligible: CMU pocketsphinx transcribes the test sentences
 * (infra/voices/wer.ts: a 23-word presenter sentence and Harvard list 1), spoken by the product's espeak-ng engine
 * with each bot's voice, rate and pitch, at a word error rate of at most 0.5 (issue 18's target). The recogniser is
 * constrained to the 177-word vocabulary of those sentences and Harvard lists 2-3, in any order. Synthesis stays
 * under 0.3 s of CPU per second of speech.
 *
 * pocketsphinx is a Debian package (`apt-get install -y pocketsphinx pocketsphinx-en-us`; .ci/run installs it): where
 * it is missing the test is skipped locally, and fails in CI (CI set), so the measure is never silently lost.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { measureVoice, pocketsphinxInstalled, wordEdits, wordsOf } from '#infra/voices/wer.ts';

const installed = await pocketsphinxInstalled();
const english = BUILT_IN_BOTS.filter((bot) => bot.voice.espeak.startsWith('espeak:en-'));

describe('the word error rate measure', () => {
  it('counts substitutions, deletions and insertions over the reference words', () => {
    expect(wordEdits(wordsOf('The birch canoe slid.'), wordsOf('the birch canoe slid'))).toBe(0);
    expect(wordEdits(wordsOf('The birch canoe slid.'), wordsOf('a birch slid on'))).toBe(3);
    expect(wordEdits(wordsOf("It's easy"), [])).toBe(2);
  });
});

describe.skipIf(!installed && !process.env.CI)("the built-in bots' offline voices, transcribed by pocketsphinx", () => {
  beforeAll(() => {
    if (!installed) throw new Error('pocketsphinx is not installed: CI must install pocketsphinx pocketsphinx-en-us (.ci/run)');
  });

  it('has the four English bots, each with its own voice', () => {
    expect(english.map((bot) => bot.name)).toEqual(['Ava', 'Leo', 'Maya', 'Otto']);
    const voices = english.map((bot) => `${bot.voice.espeak} ${bot.voice.espeakRate} ${bot.voice.espeakPitch}`);
    expect(new Set(english.map((bot) => bot.voice.espeak)).size).toBe(english.length);
    expect(new Set(voices).size).toBe(english.length);
  });

  for (const bot of english)
    it(`understands ${bot.name} (${bot.voice.espeak}, ${bot.voice.espeakRate} wpm, pitch ${bot.voice.espeakPitch}) at WER <= 0.5`, async () => {
      const measured = await measureVoice({ id: bot.voice.espeak, rate: bot.voice.espeakRate, pitch: bot.voice.espeakPitch });
      expect(measured.wer, `heard: ${measured.heard}`).toBeLessThanOrEqual(0.5);
      expect(measured.speechSeconds).toBeGreaterThan(20);
      expect(measured.cpuPerSecond).toBeLessThanOrEqual(0.3);
    }, 120_000);

  it("tells an unintelligible voice from an intelligible one: the old default, en-us+f3 at espeak-ng's own rate, scores worse", async () => {
    const old = await measureVoice({ id: 'espeak:en-us+f3' });
    const ava = BUILT_IN_BOTS.find((bot) => bot.uid === 'bot_ava')!.voice;
    const now = await measureVoice({ id: ava.espeak, rate: ava.espeakRate, pitch: ava.espeakPitch });
    expect(old.wer).toBeGreaterThan(0.5);
    expect(old.wer).toBeGreaterThan(now.wer + 0.1);
  }, 120_000);
});
