/**
 * What the espeak-ng alignment (render/speech/synthesis-alignment.ts) spends and reads: a transcript far longer than
 * its recording is refused before the warp, whose memory and work grow with the reading's length; the warp's band
 * keeps its back-pointers within 100 MB at the longest recording; and the transcript is the clip's script as parsed
 * once (an entity in it leaves every later word on its own time).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { TranscriptMismatchError, transcriptWords } from '#functions/render/speech/alignment.ts';
import { bandOf, warp } from '#functions/render/speech/dtw.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/espeak.ts';
import { alignBySynthesis } from '#functions/render/speech/synthesis-alignment.ts';
import { runFfmpeg } from '#media/media';
import { readWav } from '#media/wav';

vi.mock('#functions/render/speech/dtw.ts', async (original) => {
  const actual = await original<typeof import('#functions/render/speech/dtw.ts')>();
  return { ...actual, warp: vi.fn(actual.warp) };
});

const VOICE = 'espeak:en-us+m3';
let workDir: string;
beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'synthesis-alignment-bounds-'));
});
afterAll(() => rm(workDir, { recursive: true, force: true }));

describe('the warp', () => {
  it('keeps its back-pointers within 100 MB at the longest recording, at any pace the alignment accepts', () => {
    const m = limits.maxRecordedSpeechSeconds * 100;
    for (let n = Math.floor(m / 2.5); n <= Math.ceil(m / 0.8); n += 100)
      expect(n * (2 * bandOf(n, m) + 1), `n=${n}`).toBeLessThanOrEqual(100_000_000);
  });
});

describe('alignment through espeak-ng', () => {
  it("refuses a 3-s recording with a 2000-character transcript before the warp (its time is espeak-ng's reading)", async () => {
    const noise = Float32Array.from({ length: 3 * 16_000 }, () => 0.1 * (Math.random() - 0.5));
    const text = 'The quick brown fox jumps over the lazy dog and keeps on running. '.repeat(31);
    expect(text.length).toBeGreaterThanOrEqual(2000);
    const script = speechScriptOf(text);
    vi.mocked(warp).mockClear();
    const refused = await alignBySynthesis(noise, script, transcriptWords(script.shown), VOICE, workDir).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TranscriptMismatchError);
    expect(warp).not.toHaveBeenCalled();
  }, 30_000);

  it('reads a transcript no further than 1.25 times its recording: 12,000 characters of "a! a! ..." (about 2,300 s of pauses) stop at 3.75 s', async () => {
    const noise = Float32Array.from({ length: 3 * 16_000 }, () => 0.1 * (Math.random() - 0.5));
    const script = speechScriptOf('a! '.repeat(4000).trim());
    const synthesize = vi.spyOn(EspeakSpeechEngine.prototype, 'synthesize');
    vi.mocked(warp).mockClear();
    const started = process.cpuUsage();
    const refused = await alignBySynthesis(noise, script, transcriptWords(script.shown), VOICE, workDir).catch((e: unknown) => e);
    const cpu = process.cpuUsage(started);
    expect(refused).toBeInstanceOf(TranscriptMismatchError);
    expect(warp).not.toHaveBeenCalled();
    const reading = await synthesize.mock.results[0]!.value;
    synthesize.mockRestore();
    expect(reading.stopped).toBe(true);
    expect(reading.durationSeconds).toBeGreaterThan(3.75);
    expect(reading.durationSeconds).toBeLessThan(5);
    // The process's CPU, every thread's: read whole, 2,333 s of speech (100 MB of samples) took 3.4 s here; cut, 0.25 s
    // (2026-11-29, an idle machine).
    expect(cpu.user + cpu.system).toBeLessThan(1_500_000);
  }, 30_000);

  it("keeps each word on its own time when the transcript holds an entity (the script's markup is read once)", async () => {
    const script = speechScriptOf('Tom &amp;amp; Jerry ran far away from the big dog before the sun went down.');
    // The "recording": espeak-ng's own reading of the script, so every word's true time is the one it reports.
    const spoken = await new EspeakSpeechEngine().synthesize(script, { id: VOICE }, await mkdtemp(join(workDir, 'reading-')));
    const wav = join(workDir, 'reading-16k.wav');
    await runFfmpeg(['-protocol_whitelist', 'file', '-f', 'wav', '-i', spoken.wavPath, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', '-y', wav], {
      budgetSeconds: 60,
    });
    const words = transcriptWords(script.shown);
    const aligned = await alignBySynthesis(readWav(wav).samples, script, words, VOICE, await mkdtemp(join(workDir, 'align-')));
    // espeak-ng reports no time of its own for some short words ("the"): those share their neighbours' and are not held.
    const held = words.flatMap((w, k) => {
      const truth = spoken.words.find((s) => s.start <= w.start && s.end >= w.end);
      return truth ? [{ word: w.text, error: Math.abs(aligned.words[k]!.startSeconds - truth.startSeconds) }] : [];
    });
    expect(held.length).toBeGreaterThanOrEqual(words.length - 3);
    for (const { word, error } of held) expect(error, word).toBeLessThanOrEqual(0.05);
  }, 60_000);
});
