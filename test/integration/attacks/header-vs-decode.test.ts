/**
 * A stranger's file must decode as its headers describe it: a Matroska file whose Duration says 2 s and that
 * decodes to 60 s (a recording, a music bed, a video bot's recording), and an MPEG-TS background whose frames grow
 * from 320x240 to 640x480 after its first second, are refused by name after a decode bounded by what they claim;
 * honest files of the same kinds pass.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectBackground } from '#functions/media/background-media.ts';
import { checkDecodeAgainstHeader, DecodeMismatchError } from '#functions/media/decode-check.ts';
import { inspectRecording } from '#functions/media/footage-media.ts';
import { MediaRejectedError, runFfmpeg } from '#functions/media/media.ts';
import { decodeMusic } from '#functions/media/music.ts';
import { prepareRecording, RecordingRejectedError } from '#functions/media/recording.ts';
import { wavSeconds } from '#functions/media/wav.ts';
import { writeGrowingTs, writeLyingMatroska, writeStreamedWebm } from '../../support/hostile-media.ts';
import { workDirs } from '../../support/media-pipeline.ts';

const dir = workDirs();
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** An MP3 of `seconds` of a tone whose title is `tagLength` letters: ffmpeg copies such a tag into a WAV it writes. */
async function taggedTone(path: string, seconds: number, tagLength: number): Promise<string> {
  const tone = `sine=frequency=220:duration=${seconds}`;
  await runFfmpeg(['-f', 'lavfi', '-i', tone, '-metadata', `title=${'x'.repeat(tagLength)}`, '-c:a', 'libmp3lame', path], { budgetSeconds: 30 });
  return path;
}

describe('headers against decoding', () => {
  it('refuses a recording and a music bed that claim 2 s and decode to 60 s, after decoding at most what they claim', async () => {
    const work = dir();
    const lying = await writeLyingMatroska(join(work, 'lying.mka'), { actualSeconds: 60, claimedSeconds: 2 });
    const honest = await writeLyingMatroska(join(work, 'honest.mka'), { actualSeconds: 3, claimedSeconds: 3 });

    const started = Date.now();
    const decodedError = await rejection(checkDecodeAgainstHeader(lying, 'matroska', { seconds: 2 }, { stream: 'a', maxSeconds: 120 }));
    expect(decodedError).toBeInstanceOf(DecodeMismatchError);
    expect((decodedError as DecodeMismatchError).reason).toBe('lasts longer than the 2.0 s its header declares');
    // It decoded past the claim and its tolerance (2 s + 1 s) by at most the half second that shows it goes on, not 60 s.
    expect((decodedError as DecodeMismatchError).decodedSeconds).toBeGreaterThan(3);
    expect((decodedError as DecodeMismatchError).decodedSeconds).toBeLessThanOrEqual(3.6);
    console.log(`header vs decode: the 60-s file claiming 2 s refused in ${Date.now() - started} ms`);
    expect(await checkDecodeAgainstHeader(honest, 'matroska', { seconds: 3 }, { stream: 'a', maxSeconds: 120 })).toBeGreaterThan(2.9);

    const recording = await rejection(prepareRecording(lying, work, 120));
    expect(recording).toBeInstanceOf(RecordingRejectedError);
    expect(recording).toMatchObject({ code: 'audio_invalid', reason: 'lasts longer than the 2.0 s its header declares' });
    expect((await prepareRecording(honest, work, 120)).durationSeconds).toBeGreaterThan(2);

    const music = await rejection(decodeMusic(lying, work, 30));
    expect(music).toBeInstanceOf(MediaRejectedError);
    expect((music as MediaRejectedError).reason).toMatch(/lasts longer than the 2\.0 s/);
    await expect(decodeMusic(honest, work, 30)).resolves.toMatch(/music\.wav$/);
  }, 120_000);

  it('refuses a recording that claims no length and decodes past the limit as audio_too_long, after decoding at most half a second past it', async () => {
    const work = dir();
    const streamed = await writeStreamedWebm(join(work, 'streamed.webm'), 8);
    const refused = await rejection(prepareRecording(streamed, work, 5));
    expect(refused).toBeInstanceOf(RecordingRejectedError);
    expect(refused).toMatchObject({ code: 'audio_too_long', reason: 'lasts more than 5 s' });
    // The decode stopped at the limit and the half second that shows it goes on.
    expect(wavSeconds(join(work, 'recording-decoded.wav'))).toBeLessThanOrEqual(5.5 + 0.01);
    expect((await prepareRecording(streamed, dir(), 20)).durationSeconds).toBeCloseTo(8.5, 1);
  }, 60_000);

  it('prepares a recording and a music bed written to a pipe, whose WAV headers give no sizes (0 or 0xFFFFFFFF)', async () => {
    // What `ffmpeg ... -f wav - > x.wav` and `arecord` write: its last block is short, which a decode stopping at its
    // first error refused as "no sound that can be played" (the attacker's finding).
    for (const declared of [0xffffffff, 0]) {
      const work = dir();
      const path = join(work, 'piped.wav');
      const { stdout } = await runFfmpeg(['-f', 'lavfi', '-i', 'sine=frequency=220:duration=3.01', '-c:a', 'pcm_s16le', '-f', 'wav', '-'], {
        budgetSeconds: 30,
        captureStdout: true,
      });
      const bytes = Buffer.from(stdout);
      const data = bytes.indexOf('data');
      bytes.writeUInt32LE(declared, 4);
      bytes.writeUInt32LE(declared, data + 4);
      writeFileSync(path, bytes);
      expect((await prepareRecording(path, work, 20)).durationSeconds).toBeCloseTo(3.5, 1);
      writeFileSync(path, bytes);
      expect(wavSeconds(await decodeMusic(path, work, 3))).toBeGreaterThan(2.9);
    }
  }, 60_000);

  it('names a recording of a hundredth of a second too short, not silent', async () => {
    const work = dir();
    const blip = await taggedTone(join(work, 'blip.mp3'), 0.01, 0);
    expect(await rejection(prepareRecording(blip, work, 20))).toMatchObject({
      code: 'audio_invalid',
      reason: expect.stringMatching(/^lasts 0\.\d\d s: too short to speak$/),
    });
  }, 60_000);

  it('prepares a recording whose tags run to kilobytes: none is copied into the WAVs it writes, whose length is exact', async () => {
    const work = dir();
    const tagged = await taggedTone(join(work, 'tagged.mp3'), 3, 6000);
    const prepared = await prepareRecording(tagged, work, 20);
    const published = readFileSync(prepared.wavPath);
    expect(published.includes('xxxxxxxx')).toBe(false);
    expect(published.toString('ascii', 36, 40)).toBe('data');
    expect(prepared.durationSeconds).toBe((published.length - 44) / 96_000);
  }, 60_000);

  it('refuses a music bed of 0.02 s of sound whose tags fill 30 KB: its length is the samples, not the file', async () => {
    const work = dir();
    const tagged = await taggedTone(join(work, 'blip.mp3'), 0.02, 30_000);
    await expect(decodeMusic(tagged, work, 30)).rejects.toThrow('has no sound that can be played');
  }, 60_000);

  it("refuses a video bot's recording that claims 12 s and decodes to 40 s", async () => {
    const work = dir();
    const lying = await writeLyingMatroska(join(work, 'lying.mkv'), { actualSeconds: 40, claimedSeconds: 12, video: true });
    const error = await rejection(inspectRecording(lying));
    expect(error).toBeInstanceOf(DecodeMismatchError);
    expect((error as DecodeMismatchError).reason).toBe('lasts longer than the 12.0 s its header declares');
    const honest = await writeLyingMatroska(join(work, 'honest.mkv'), { actualSeconds: 12, claimedSeconds: 12, video: true });
    expect((await inspectRecording(honest)).durationSeconds).toBeCloseTo(12, 0);
  }, 120_000);

  it("refuses a video bot's recording whose picture is larger than 4K, by name, before decoding it", async () => {
    // 8000x8000 in a file of 0.2 MB: its decode took the preparation's whole budget and failed without a name.
    const work = dir();
    const huge = join(work, 'huge.mp4');
    await runFfmpeg(
      ['-f', 'lavfi', '-i', 'color=c=gray:s=8000x8000:r=1:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', huge],
      {
        budgetSeconds: 60,
      },
    );
    const started = performance.now();
    const error = await rejection(inspectRecording(huge));
    expect(error).toBeInstanceOf(MediaRejectedError);
    expect((error as MediaRejectedError).reason).toBe('is 8000x8000; a recording may be at most 3840x2160 (4K), either way round');
    expect(performance.now() - started).toBeLessThan(5000);
    // 4K itself, either way round, is taken.
    for (const size of ['3840x2160', '2160x3840']) {
      const camera = join(work, `${size}.mp4`);
      await runFfmpeg(
        ['-f', 'lavfi', '-i', `color=c=gray:s=${size}:r=2:d=1`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', camera],
        {
          budgetSeconds: 60,
        },
      );
      expect((await inspectRecording(camera)).durationSeconds).toBeCloseTo(1, 0);
    }
  }, 120_000);

  it('refuses a background whose pictures grow past the size its header declares', async () => {
    const work = dir();
    const growing = await writeGrowingTs(work, '320x240', '640x480');
    const error = await rejection(inspectBackground(growing, work));
    expect(error).toBeInstanceOf(DecodeMismatchError);
    expect((error as DecodeMismatchError).reason).toMatch(/decodes to pictures of another size than the 320x240 it declares/);
  }, 60_000);
});
