/**
 * An English recording longer than SoundSwallower aligns (alignment.ts MAX_MODEL_ALIGNMENT_SECONDS) goes through
 * espeak-ng's English voice and the warp: the LibriVox sentences of Debian's pocketsphinx-testdata (public domain;
 * .ci/run installs it) looped past that length, with their transcript, are aligned word by word, in order, without
 * the acoustic model. Skipped locally where the sentences are not installed; CI fails without them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import { alignTranscript, MAX_MODEL_ALIGNMENT_SECONDS, transcriptWords } from '#functions/render/speech/alignment.ts';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { readWav, wavFromPcm16 } from '#media/wav';
import { librivoxInstalled, librivoxSentences } from '../../support/librivox.ts';

vi.mock('#functions/render/speech/alignment.ts', async (original) => {
  const actual = await original<typeof import('#functions/render/speech/alignment.ts')>();
  return { ...actual, alignTranscript: vi.fn(actual.alignTranscript) };
});

let dir: string;
beforeAll(async () => {
  if (!librivoxInstalled() && process.env.CI) throw new Error('CI must install pocketsphinx-testdata (.ci/run)');
  dir = await mkdtemp(join(tmpdir(), 'recorded-long-english-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.skipIf(!librivoxInstalled() && !process.env.CI)('an English recording longer than the acoustic model aligns', () => {
  it("is aligned through espeak-ng's English voice: every word, in order, inside the recording", async () => {
    const sentences = librivoxSentences();
    const parts: Buffer[] = [];
    const texts: string[] = [];
    let seconds = 0;
    for (let i = 0; seconds < MAX_MODEL_ALIGNMENT_SECONDS + 5; i++) {
      const pcm = readWav(sentences[i % sentences.length]!.path);
      parts.push(Buffer.from(Int16Array.from(pcm.samples, (v) => Math.round(v * 32767)).buffer));
      texts.push(sentences[i % sentences.length]!.text);
      seconds += pcm.samples.length / pcm.sampleRate;
    }
    const path = join(dir, 'looped.wav');
    await writeFile(path, wavFromPcm16(Buffer.concat(parts), 16_000));
    const transcript = texts.join(' ');

    const speech = await new RecordedSpeech(path, { model: 'en', espeakVoice: 'espeak:en-us+m3' }).synthesize(
      speechScriptOf(transcript),
      { id: 'recording' },
      dir,
    );
    expect(alignTranscript).not.toHaveBeenCalled();
    expect(speech.words).toHaveLength(transcriptWords(transcript).length);
    const starts = speech.words.map((w) => w.startSeconds);
    for (let i = 1; i < starts.length; i++) expect(starts[i]!).toBeGreaterThanOrEqual(starts[i - 1]!);
    expect(starts[0]!).toBeGreaterThanOrEqual(0);
    expect(speech.words.at(-1)!.endSeconds).toBeLessThanOrEqual(speech.durationSeconds);
    expect(speech.phonemes!.length).toBeGreaterThan(speech.words.length);
  }, 180_000);
});
