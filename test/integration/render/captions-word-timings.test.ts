/**
 * Captions: espeak-ng's word timings against the audio, and alignment on silence alone.
 */

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { speechScriptOf } from '#domain/lexicon';
import { voiceToSpeak } from '#domain/voices';
import { readWav } from '#functions/media/wav.ts';
import { alignWords, silences } from '#functions/render/speech/alignment.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { BENCH_TEXT } from '#infra/scripts/bench-support.ts';
import { ava, scratchDir } from '../../support/captions.ts';

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
