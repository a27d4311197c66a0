/**
 * Captions: espeak-ng's word and phoneme timings (its own events) against the audio.
 */

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { speechScriptOf } from '#domain/lexicon';
import { voiceToSpeak } from '#domain/voices';
import { readWav } from '#functions/media/wav.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { BENCH_TEXT } from '#infra/scripts/bench/support.ts';
import { ava, scratchDir } from '../../support/captions.ts';
import { silences } from '../../support/silences.ts';

const root = scratchDir('vidbot-captions-');

describe('espeak-ng word timings', () => {
  it('sentence and clause starts land on the speech onsets after the pauses; every word in order, inside the audio', async () => {
    const text = 'Hello there! Welcome to vidbot, the talking presenter. It turns your text into video, in 2026 and beyond. Ready?';
    const workDir = mkdtempSync(join(root, 'espeak-'));
    const result = await new EspeakSpeechEngine().synthesize(speechScriptOf(text), voiceToSpeak(ava.voice, undefined, { polly: false }), workDir);
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
        speechScriptOf(BENCH_TEXT),
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
      speechScriptOf(text),
      voiceToSpeak(ava.voice, undefined, { polly: false }),
      mkdtempSync(join(root, 'espeak-')),
    );
    expect(result.words.map((w) => text.slice(w.start, w.end))).toEqual(['Line', 'one,', 'line', 'two.']);
  });

  it("times every sound from espeak-ng's own events: in order, inside the audio, stressed vowels marked, on the audio's clock", async () => {
    const text = 'Mama bought a puppy.';
    const result = await new EspeakSpeechEngine().synthesize(
      speechScriptOf(text),
      voiceToSpeak(ava.voice, undefined, { polly: false }),
      mkdtempSync(join(root, 'espeak-')),
    );
    const sounds = result.phonemes!.map((p) => p.ipa);
    expect(sounds.filter((p) => ['m', 'b', 'p'].includes(p))).toEqual(['m', 'm', 'b', 'p', 'p']);
    expect(result.phonemes!.filter((p) => p.stress === 1).length).toBeGreaterThanOrEqual(3);
    result.phonemes!.slice(1).forEach((p, i) => expect(p.startSeconds).toBeGreaterThanOrEqual(result.phonemes![i]!.endSeconds - 1e-6));
    expect(result.phonemes!.at(-1)!.endSeconds).toBeLessThanOrEqual(result.durationSeconds);
    // A word spans its sounds.
    const mama = result.words[0]!;
    expect(result.phonemes![0]!.startSeconds).toBe(mama.startSeconds);

    // After a minute of speech, the sound after each pause still starts where the audio does (within 15 ms): espeak-ng's
    // event clock runs 0.23 % fast at 22,050 Hz (125 ms by the end), and the engine puts it back on the audio's.
    const long = await new EspeakSpeechEngine().synthesize(
      speechScriptOf(BENCH_TEXT),
      voiceToSpeak(ava.voice, undefined, { polly: false }),
      mkdtempSync(join(root, 'espeak-')),
    );
    const pcm = readWav(long.wavPath);
    const { gaps } = silences(pcm.samples, pcm.sampleRate);
    const late = gaps.filter((g) => g.start > long.durationSeconds - 15 && g.end - g.start >= 0.12);
    expect(late.length).toBeGreaterThanOrEqual(3);
    for (const gap of late) {
      const first = long.phonemes!.find((p) => p.startSeconds >= gap.end - 0.1)!;
      expect(Math.abs(first.startSeconds - gap.end), `sound at ${first.startSeconds} after the pause ending ${gap.end}`).toBeLessThanOrEqual(0.015);
    }
  });
});
