/**
 * A video's music, with real ffmpeg: the assemble job joins two real clips and lays a music file (served over
 * HTTP, fetched through the address guard) or a preset under them. The music is measured in the output: its
 * band drops by at least 12 dB while a voice speaks and comes back in the pause between the clips, it plays on
 * across the join (no restart), it loops to the video's length; a preset is heard in the pauses, in a video and
 * in a voice-only MP3. The presets themselves are measured (loudness, a seamless loop).
 */

import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQueueJob } from '#commons/jobs';
import { HttpStatusError } from '#commons/net/errors';
import { MUSIC_PRESETS } from '#domain/choices';
import { JobFailedError } from '#domain/errors';
import { assembleJob } from '#functions/assemble/assemble-job.ts';
import { decodeMusicFile, musicBed } from '#functions/assemble/music.ts';
import { ffmpegPath } from '#functions/media/binaries.ts';
import { concatClips } from '#functions/media/concat.ts';
import { fetchMediaToFile } from '#functions/media/fetch-media.ts';
import { AUDIO_ENCODE_ARGS, VIDEO_ENCODE_ARGS, VOICE_ENCODE_ARGS } from '#functions/media/formats.ts';
import { mixMusic } from '#functions/media/music.ts';
import { presetWav } from '#functions/media/music-presets.ts';
import { musicRules } from '#functions/media/remote-media.ts';
import { renderJob } from '#functions/render/clip-job.ts';
import type { RenderClipInput } from '#functions/render/engine/types.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { probeFile } from '../../support/media.ts';
import { startServer } from '../../support/net.ts';
import {
  assembleDeps,
  assembleQueue,
  clipDeps,
  download,
  objects,
  renderClip,
  renderQueue,
  submit,
  useRenderPipeline,
  videos,
} from '../../support/render-pipeline.ts';

const exec = promisify(execFile);
const ffmpeg = (args: string[]) => exec(ffmpegPath(), ['-hide_banner', '-nostats', ...args], { maxBuffer: 64 * 1024 * 1024 });

useRenderPipeline(() => new Date());

/** Each clip: 6 s, silent but for its "voice" (a 300 Hz tone) from 2.5 s to 5 s, which its one cue covers. */
const CLIP_SECONDS = 6;
const SPEECH = { startSeconds: 2.5, endSeconds: 5 };

/** A real clip, as the engine would make it: a picture and the voice's tone (video), or the voice alone (MP3). */
async function realClip(input: RenderClipInput) {
  const voice = input.mode === 'voice';
  const path = join(input.workDir, voice ? 'clip.mp3' : 'clip.mp4');
  const tone = `sine=f=300:sample_rate=48000:d=${CLIP_SECONDS},volume='if(between(t,${SPEECH.startSeconds},${SPEECH.endSeconds}),0.5,0)':eval=frame`;
  await ffmpeg([
    '-y',
    ...(voice ? [] : ['-f', 'lavfi', '-i', `color=c=navy:s=320x180:r=25:d=${CLIP_SECONDS}`]),
    '-f',
    'lavfi',
    '-i',
    tone,
    ...(voice ? VOICE_ENCODE_ARGS : [...VIDEO_ENCODE_ARGS, ...AUDIO_ENCODE_ARGS, '-movflags', '+faststart']),
    path,
  ]);
  const cues = [{ ...SPEECH, lines: [input.text] }];
  return { path, contentType: voice ? 'audio/mpeg' : 'video/mp4', durationSeconds: CLIP_SECONDS, cues, words: [] };
}

/** RMS level (dB) of `path`'s sound from `from` to `to` s, through `filter` (e.g. a narrow band-pass). */
async function levelDb(path: string, from: number, to: number, filter = 'anull'): Promise<number> {
  const { stderr } = await ffmpeg([
    '-ss',
    String(from),
    '-t',
    String(to - from),
    '-i',
    path,
    '-vn',
    '-af',
    `${filter},astats=metadata=0`,
    '-f',
    'null',
    '-',
  ]);
  const overall = stderr.slice(stderr.lastIndexOf('Overall'));
  const db = /RMS level dB: (-?[\d.]+|-inf)/.exec(overall)?.[1];
  return db === undefined || db === '-inf' ? -200 : Number(db);
}
/** Two band-passes in a row around `hz`: the music's tone alone, the voice's 300 Hz far outside it. */
const band = (hz: number) => `bandpass=f=${hz}:width_type=h:w=300,bandpass=f=${hz}:width_type=h:w=300`;

let files: Awaited<ReturnType<typeof startFileServer>>;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'music-test-'));
  // The caller's music: a 7 kHz tone for 10 s (shorter than the video: it must loop), with a 9 kHz marker at 1.0-1.3 s.
  const music = join(dir, 'music.mp3');
  await ffmpeg([
    '-y',
    '-f',
    'lavfi',
    '-i',
    'sine=f=7000:sample_rate=48000:d=10',
    '-f',
    'lavfi',
    '-i',
    "sine=f=9000:sample_rate=48000:d=10,volume='between(t,1,1.3)':eval=frame",
    '-filter_complex',
    '[0][1]amix=inputs=2,volume=2',
    '-ac',
    '2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '192k',
    music,
  ]);
  const picture = join(dir, 'silent-picture.mp4');
  await ffmpeg(['-y', '-f', 'lavfi', '-i', 'color=c=red:s=160x90:r=10:d=2', ...VIDEO_ENCODE_ARGS, picture]);
  const text = join(dir, 'words.txt');
  await writeFile(text, 'this is not music');
  files = await startFileServer({ '/music.mp3': music, '/picture.mp4': picture, '/words.mp3': text });
  renderClip.mockImplementation(realClip);
  assembleDeps.concat = concatClips;
  assembleDeps.mixMusic = mixMusic;
  assembleDeps.musicBed = (music, workDir, seconds, key) => musicBed(music, workDir, seconds, { key, objects });
  // The fetch stage downloads the music for real.
  download.mockImplementation(fetchMediaToFile);
}, 60_000);

afterAll(async () => {
  await files?.stop();
});

/** Makes and assembles a two-clip video with `music`; returns the output's local path (and its first clip's). */
async function assembled(music: unknown, createVideo = true): Promise<string> {
  return (await assembledWithClip(music, createVideo)).path;
}

async function assembledWithClip(music: unknown, createVideo = true): Promise<{ path: string; firstClip: string }> {
  const created = await submit(
    [
      { bot_uid: 'bot_ava', text: `First ${Math.random()}` },
      { bot_uid: 'bot_leo', text: `Second ${Math.random()}` },
    ],
    createVideo,
    undefined,
    { music },
  );
  for (const message of renderQueue.take()) await runQueueJob(renderJob, message, 1, 3, clipDeps);
  await runQueueJob(assembleJob, assembleQueue.take()[0]!, 1, 3, assembleDeps);
  const done = await videos.get(created.videoId);
  expect(done?.error).toBeUndefined();
  expect(done?.status).toBe('completed');
  const extension = createVideo ? 'mp4' : 'mp3';
  const path = join(dir, `${created.videoId}.${extension}`);
  await writeFile(path, await objects.read(done!.output!.objectKey));
  const firstClip = join(dir, `${created.videoId}-clip0.${extension}`);
  await writeFile(firstClip, await objects.read(done!.clipResults['0']!.objectKey!));
  return { path, firstClip };
}

describe('music from a URL under a two-clip video', () => {
  let video: string;
  let firstClip: string;
  beforeAll(async () => {
    ({ path: video, firstClip } = await assembledWithClip({ url: `${files.base}/music.mp3`, volume: 0.5 }));
  }, 120_000);

  it('keeps the picture as rendered (copied) and the length of the clips', async () => {
    const probed = await probeFile(video);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
    expect(Number(probed.format.duration)).toBeCloseTo(2 * CLIP_SECONDS, 0);
  });

  it('is at least 12 dB lower while a voice speaks than in the pause between the clips', async () => {
    const music = band(7000);
    // Pauses: the first clip's end and the second's start (the fades are over by then); speech: each clip's voice.
    const pause = await levelDb(video, 5.5, 8, music);
    const firstVoice = await levelDb(video, 3, 4.6, music);
    const secondVoice = await levelDb(video, CLIP_SECONDS + 3, CLIP_SECONDS + 3.9, music);
    expect(pause).toBeGreaterThan(-40);
    expect(pause - firstVoice).toBeGreaterThanOrEqual(12);
    expect(pause - secondVoice).toBeGreaterThanOrEqual(12);
    // The voice is as loud as in its clip.
    const voice = 'lowpass=f=1000,lowpass=f=1000';
    expect(Math.abs((await levelDb(video, 3, 4.6, voice)) - (await levelDb(firstClip, 3, 4.6, voice)))).toBeLessThan(0.5);
  });

  it('ramps down and up smoothly (about 200 ms), not in a step', async () => {
    const music = band(7000);
    const pause = await levelDb(video, 5.5, 8, music);
    // Halfway through the ramp before the second voice (8.3-8.5 s): between the two levels.
    const ramp = await levelDb(video, CLIP_SECONDS + 2.35, CLIP_SECONDS + 2.45, music);
    const ducked = await levelDb(video, CLIP_SECONDS + 3, CLIP_SECONDS + 3.9, music);
    expect(ramp).toBeLessThan(pause - 1);
    expect(ramp).toBeGreaterThan(ducked + 1);
  });

  it('plays on across the join: its marker is heard once, where the music is at 1 s, and its level is even over the join', async () => {
    const marker = band(9000);
    const atOneSecond = await levelDb(video, 1, 1.3, marker);
    const afterJoin = await levelDb(video, CLIP_SECONDS + 1, CLIP_SECONDS + 1.3, marker);
    expect(atOneSecond - afterJoin).toBeGreaterThan(20);
    const music = band(7000);
    const levels = await Promise.all([levelDb(video, 5.5, 5.9, music), levelDb(video, 5.9, 6.1, music), levelDb(video, 6.1, 6.5, music)]);
    expect(Math.max(...levels) - Math.min(...levels)).toBeLessThan(1.5);
  });

  it('loops to the length of the video (the file lasts 10 s, the video 12 s) and fades out at the end', async () => {
    const music = band(7000);
    const pause = await levelDb(video, 5.5, 8, music);
    const afterLoop = await levelDb(video, 11.25, 11.5, music);
    expect(afterLoop).toBeGreaterThan(pause - 20);
    expect(afterLoop).toBeLessThan(pause - 3);
    expect(await levelDb(video, 0, 0.2, music)).toBeLessThan(pause - 10);
  });
});

describe('a preset', () => {
  it('"calm" is heard in the pauses of a video, and under the voice it is ducked', async () => {
    const video = await assembled({ preset: 'calm' });
    const music = 'lowpass=f=2000,highpass=f=60';
    const pause = await levelDb(video, 5.5, 8);
    expect(pause).toBeGreaterThan(-50);
    // The voice's tone notched out, what is left of the music under it is far quieter.
    const underVoice = await levelDb(video, 3, 4.6, `${music},bandreject=f=300:width_type=h:w=100,bandreject=f=300:width_type=h:w=100`);
    expect(pause - underVoice).toBeGreaterThanOrEqual(12);
  }, 120_000);

  it('in a voice-only video (create_video false) is mixed into the MP3', async () => {
    const voice = await assembled({ preset: 'ambient', volume: 0.4 }, false);
    const probed = await probeFile(voice);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['audio:mp3']);
    expect(await levelDb(voice, 5.5, 8)).toBeGreaterThan(-50);
  }, 120_000);

  it.each(MUSIC_PRESETS)('%s is about -20 LUFS and loops without a click', async (preset) => {
    const wav = presetWav(preset);
    const path = join(dir, `${preset}.wav`);
    await writeFile(path, wav);
    const { stderr } = await ffmpeg(['-i', path, '-af', 'ebur128', '-f', 'null', '-']);
    const integrated = Number(/I:\s+(-?[\d.]+) LUFS/.exec(stderr.slice(stderr.lastIndexOf('Summary')))?.[1]);
    expect(integrated).toBeGreaterThan(-21.5);
    expect(integrated).toBeLessThan(-18.5);
    // The step from its last sample to its first is no larger than steps inside the loop.
    const frames = (wav.length - 44) / 4;
    const sample = (i: number, ch: number) => wav.readInt16LE(44 + i * 4 + ch * 2);
    let largest = 0;
    for (let i = 1; i < frames; i++) largest = Math.max(largest, Math.abs(sample(i, 0) - sample(i - 1, 0)));
    expect(Math.abs(sample(0, 0) - sample(frames - 1, 0))).toBeLessThanOrEqual(largest * 0.5);
  });
});

describe('a music file that cannot be used', () => {
  // Fetched by the fetch stage's rules, then decoded by the assembly.
  const bed = async (url: string) => {
    const path = join(dir, 'music-download');
    await fetchMediaToFile(url, path, { ...musicRules, mode: 'local' });
    return decodeMusicFile(path, dir, 5);
  };
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => (error instanceof JobFailedError ? { code: error.code, message: error.message } : error),
    );

  it('is music_invalid without a sound (a video without audio) or in another format', async () => {
    expect(await failure(bed(`${files.base}/picture.mp4`))).toEqual({
      code: 'music_invalid',
      message: 'the music file (M4A / MP4 / MOV) has no sound that can be played',
    });
    expect(await failure(bed(`${files.base}/words.mp3`))).toMatchObject({
      code: 'music_invalid',
      message: expect.stringMatching(/^the music file is not an audio/),
    });
  });

  it('is retried, not failed, when its server answers 503 or 429 (it may recover), as a background is', async () => {
    const busy = await startServer((req, res) => res.writeHead(req.url === '/busy.mp3' ? 503 : 429).end());
    try {
      for (const path of ['/busy.mp3', '/later.mp3']) {
        const error = await bed(`${busy.origin}${path}`).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HttpStatusError);
        expect(error).not.toBeInstanceOf(JobFailedError);
      }
    } finally {
      await busy.close();
    }
  });

  it('is music_unavailable when missing, music_not_allowed at a metadata address, never naming the URL', async () => {
    expect(await failure(bed(`${files.base}/missing.mp3`))).toEqual({ code: 'music_unavailable', message: 'the music URL answered HTTP 404' });
    const refused = await failure(bed('http://169.254.169.254/latest/meta-data/'));
    expect(refused).toMatchObject({ code: 'music_not_allowed' });
    expect(JSON.stringify(refused)).not.toContain('169.254');
  });
});
