/**
 * A clip's recording may last limits.maxRecordedSpeechSeconds (10 minutes), longer than synthesised speech may: a
 * generated tone of exactly that length is prepared and given to the clip whole (the render's speech limit is the
 * engine's), and one a second longer is refused as audio_too_long, before it is decoded. A test key's video may
 * last 60 s in all, so its clips' recordings are refused past that, at their probe, not after a 10-minute render.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobFailedError } from '#domain/errors';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { recordingSecondsFor } from '#domain/test-mode';
import { RecordedSpeech } from '#functions/render/speech/recorded.ts';
import { swellingTone } from '../../support/tone.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'recording-length-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const speak = async (seconds: number, video: { test?: true } = {}) => {
  const path = join(dir, `tone-${seconds}.wav`);
  await writeFile(path, swellingTone(seconds));
  const engine = new RecordedSpeech(path, undefined, undefined, recordingSecondsFor(video, limits.maxRecordedSpeechSeconds));
  return { engine, result: engine.synthesize(speechScriptOf(''), { id: 'recording' }, dir) };
};

describe("a clip's recording at its length limit", () => {
  it('accepts a recording of exactly 10 minutes, longer than synthesised speech may last, and gives the clip all of it', async () => {
    expect(limits.maxRecordedSpeechSeconds).toBe(600);
    expect(limits.maxRecordedSpeechSeconds).toBeGreaterThan(limits.maxSpeechSeconds);
    const { engine, result } = await speak(limits.maxRecordedSpeechSeconds);
    const speech = await result;
    // Trimmed of nothing (no silence at its edges) and given 0.25 s of silence at each.
    expect(speech.durationSeconds).toBeCloseTo(limits.maxRecordedSpeechSeconds + 0.5, 1);
    expect(speech.durationSeconds).toBeLessThanOrEqual(engine.maxSeconds);
    expect(speech.words).toEqual([]);
  }, 180_000);

  it('refuses one a second longer as audio_too_long, naming the limit', async () => {
    const refused = await (await speak(limits.maxRecordedSpeechSeconds + 1)).result.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JobFailedError);
    expect((refused as JobFailedError).code).toBe('audio_too_long');
    expect((refused as JobFailedError).message).toBe("its recording lasts 601 s; a clip's recording may last at most 600 s");
  }, 60_000);

  it("refuses a test video's recording longer than a test video may last, before it is decoded", async () => {
    const started = Date.now();
    const refused = await (await speak(61, { test: true })).result.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JobFailedError);
    expect((refused as JobFailedError).code).toBe('audio_too_long');
    expect((refused as JobFailedError).message).toBe("its recording lasts 61 s; a clip's recording may last at most 60 s");
    expect(Date.now() - started).toBeLessThan(30_000);
    const live = await (await speak(61)).result;
    expect(live.durationSeconds).toBeCloseTo(61.5, 1);
  }, 60_000);
});
