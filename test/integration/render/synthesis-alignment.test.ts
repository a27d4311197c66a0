/**
 * Alignment through espeak-ng and dynamic time warping (render/speech/synthesis-alignment.ts), the path of every
 * language but English. Its English control, on real recordings of a real person (the LibriVox sentences of
 * Debian's pocketsphinx-testdata, which .ci/run installs): espeak-ng's English voice speaks each transcript, the
 * warp maps it onto the recording, and every word's start is held against SoundSwallower's alignment of the same
 * prepared recording (its acoustic model, measured against pocketsphinx in recorded-speech.test.ts): median error at
 * most 80 ms, 90th percentile at most 200 ms. Another sentence's transcript, or the sentence's own words in
 * another order, is refused (audio_transcript_mismatch).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobFailedError } from '#domain/errors';
import { speechScriptOf } from '#domain/lexicon';
import { alignTranscript, transcriptWords } from '#functions/render/speech/alignment.ts';
import { bandOf, warp } from '#functions/render/speech/dtw.ts';
import { mfccFrames } from '#functions/render/speech/mfcc.ts';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { shuffledTranscript } from '#functions/render/speech/synthesis-alignment.ts';
import { readWav } from '#media/wav';
import { librivoxInstalled, librivoxSentences } from '../../support/librivox.ts';

const sentences = librivoxSentences();
const ENGLISH = { espeakVoice: 'espeak:en-us+m3' };
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

let workDir: string;
beforeAll(async () => {
  if (!librivoxInstalled() && process.env.CI) throw new Error('CI must install pocketsphinx-testdata (.ci/run)');
  workDir = await mkdtemp(join(tmpdir(), 'synthesis-alignment-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('the warp', () => {
  it('maps a sound stretched to twice its length onto its own moments, at a cost ratio of 0 where they are alike', () => {
    // A sweep of a tone's pitch: every 10-ms frame differs from the others.
    const sweep = (seconds: number) =>
      Float32Array.from({ length: seconds * 16_000 }, (_, i) => 0.5 * Math.sin(2 * Math.PI * (200 + (3000 * i) / (seconds * 16_000)) * (i / 16_000)));
    const short = mfccFrames(sweep(1));
    const long = mfccFrames(sweep(2));
    const { recordingFrameOf } = warp(short, long);
    // Frame i of the short sweep is frame ~2i of the long one (the sweep's pitch at the same fraction of its length).
    const errors = [...recordingFrameOf].map((j, i) => Math.abs(j - 2 * i));
    expect(quantile(errors, 0.5)).toBeLessThanOrEqual(3);
    expect(warp(short, short).costRatio).toBeLessThan(0.01);
  });

  it('finds the path of the plain frame-by-frame warp, bit for bit, and its cost ratio to 12 places, on real and random frames', () => {
    let seed = 1;
    const random = (n: number) =>
      Array.from({ length: n }, () => Float32Array.from({ length: 12 }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1));
    const real = librivoxInstalled() ? sentences.map((s) => mfccFrames(readWav(s.path).samples)) : [];
    const pairs: [Float32Array[], Float32Array[]][] = [
      [random(1200), random(900)],
      [random(1), random(40)],
      ...real.map((a, i) => [a, real[(i + 1) % real.length]!] as [Float32Array[], Float32Array[]]),
    ];
    for (const [synth, recording] of pairs) {
      const fast = warp(synth, recording);
      const plain = plainWarp(synth, recording);
      // The band's mean unlikeness is summed in another order (running sums of unit vectors): the last bits may differ.
      expect(fast.costRatio).toBeCloseTo(plain.costRatio, 12);
      expect([...fast.recordingFrameOf]).toEqual([...plain.recordingFrameOf]);
    }
  });
});

/** The warp of dtw.ts computed frame by frame, each cell's distance and unlikeness on their own: the reference. */
function plainWarp(synth: Float32Array[], recording: Float32Array[]) {
  const sum = (a: Float32Array, f: (k: number) => number) => a.reduce((total, _, k) => total + f(k), 0);
  const distance = (a: Float32Array, b: Float32Array) => Math.sqrt(sum(a, (k) => (a[k]! - b[k]!) * (a[k]! - b[k]!)));
  const unlikeness = (a: Float32Array, b: Float32Array) =>
    1 - sum(a, (k) => a[k]! * b[k]!) / Math.sqrt(sum(a, (k) => a[k]! * a[k]!) * sum(b, (k) => b[k]! * b[k]!) + 1e-12);
  const [n, m] = [synth.length, recording.length];
  const band = bandOf(n, m);
  const width = 2 * band + 1;
  const centre = (i: number) => Math.round((i * (m - 1)) / Math.max(1, n - 1));
  const cost = Array.from({ length: n }, () => new Float64Array(width).fill(Number.POSITIVE_INFINITY));
  const from = Array.from({ length: n }, () => new Uint8Array(width));
  const at = (i: number, j: number) =>
    i < 0 || j - centre(i) + band < 0 || j - centre(i) + band >= width ? Number.POSITIVE_INFINITY : cost[i]![j - centre(i) + band]!;
  let [pairs, pairSum] = [0, 0];
  for (let i = 0; i < n; i++)
    for (let o = 0, j = centre(i) - band; o < width; o++, j++) {
      if (j < 0 || j >= m) continue;
      pairs++;
      pairSum += unlikeness(synth[i]!, recording[j]!);
      const [diagonal, down, right] = [at(i - 1, j - 1), at(i - 1, j), o > 0 ? cost[i]![o - 1]! : Number.POSITIVE_INFINITY];
      const best = i === 0 && j === 0 ? 0 : Math.min(diagonal, down, right);
      if (best === Number.POSITIVE_INFINITY) continue;
      cost[i]![o] = best + distance(synth[i]!, recording[j]!);
      from[i]![o] = best === diagonal ? 0 : best === down ? 1 : 2;
    }
  const recordingFrameOf = new Int32Array(n);
  let [i, j, steps, total] = [n - 1, m - 1, 0, 0];
  while (i >= 0 && j >= 0) {
    recordingFrameOf[i] = j;
    total += unlikeness(synth[i]!, recording[j]!);
    steps++;
    if (i === 0 && j === 0) break;
    const o = j - centre(i) + band;
    const step = o >= 0 && o < width ? from[i]![o]! : 0;
    if (step === 0) i--, j--;
    else if (step === 1) i--;
    else j--;
  }
  return { recordingFrameOf, costRatio: total / steps / (pairSum / pairs) };
}

describe.skipIf(!librivoxInstalled() && !process.env.CI)('alignment through espeak-ng, on LibriVox recordings of a real reader', () => {
  it("lands every word on SoundSwallower's time for it: median error <= 80 ms, 90th percentile <= 200 ms", async () => {
    const errors: number[] = [];
    for (const [i, sentence] of sentences.entries()) {
      const dir = await mkdirp(join(workDir, `align-${i}`));
      const speech = await new RecordedSpeech(sentence.path, ENGLISH).synthesize(speechScriptOf(sentence.text), { id: 'recording' }, dir);
      const words = transcriptWords(sentence.text);
      expect(speech.words).toHaveLength(words.length);
      expect(speech.phonemes!.length).toBeGreaterThan(words.length);
      const reference = await alignTranscript(readWav(join(dir, 'recording-16k.wav')).samples, words, 'en');
      words.forEach((_, k) => errors.push(Math.abs(speech.words[k]!.startSeconds - reference.words[k]!.startSeconds)));
    }
    const shown = `errors (s): ${errors.map((e) => e.toFixed(2)).join(' ')}`;
    expect(errors.length).toBeGreaterThanOrEqual(60);
    expect(quantile(errors, 0.5), shown).toBeLessThanOrEqual(0.08);
    expect(quantile(errors, 0.9), shown).toBeLessThanOrEqual(0.2);
  }, 600_000);

  it("refuses another sentence's transcript: audio_transcript_mismatch", async () => {
    for (const [i, sentence] of sentences.entries()) {
      const other = sentences[(i + 1) % sentences.length]!.text;
      const dir = await mkdirp(join(workDir, `mismatch-${i}`));
      const refused = await new RecordedSpeech(sentence.path, ENGLISH)
        .synthesize(speechScriptOf(other), { id: 'recording' }, dir)
        .catch((e: unknown) => e);
      expect(refused, `${sentence.path} with "${other}"`).toBeInstanceOf(JobFailedError);
      expect((refused as JobFailedError).code).toBe('audio_transcript_mismatch');
    }
  }, 600_000);
});

describe.skipIf(!librivoxInstalled() && !process.env.CI)("a transcript's own words in another order", () => {
  it("is refused: the path ratio over its shuffled copy's, not the path ratio alone, tells it", async () => {
    // A sentence of fewer than 12 words has no shuffled baseline: the path ratio alone judges it.
    const long = sentences.filter((sentence) => shuffledTranscript(speechScriptOf(sentence.text)) !== undefined);
    expect(long.length).toBeGreaterThanOrEqual(3);
    for (const [i, sentence] of long.entries()) {
      const shuffled = shuffledTranscript(speechScriptOf(sentence.text));
      const dir = await mkdirp(join(workDir, `shuffled-${i}`));
      const refused = await new RecordedSpeech(sentence.path, ENGLISH)
        .synthesize(speechScriptOf(shuffled!), { id: 'recording' }, dir)
        .catch((e: unknown) => e);
      expect(refused, `${sentence.path} with "${shuffled}"`).toBeInstanceOf(JobFailedError);
      expect((refused as JobFailedError).code).toBe('audio_transcript_mismatch');
    }
  }, 600_000);
});

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
