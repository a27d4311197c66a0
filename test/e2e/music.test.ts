/**
 * Music through the local service, as a caller hears it: a two-clip video spoken by espeak-ng (real speech, real
 * cues) with a music file served over HTTP. The music is a 13 kHz tone, above everything the 22 kHz voice holds,
 * so its band can be measured alone: it is at least 12 dB lower inside the video's captions (where the voices
 * speak) than in the silences around the transitions, and the record shows the music asked for.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '#functions/media/binaries.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import type { TestRuntime } from '../support/harness.ts';
import { probeFile } from '../support/media.ts';
import { apiOf, type E2eService, finishedVideo, startE2eService, stopE2eService } from '../support/service.ts';

const exec = promisify(execFile);
const ffmpeg = (args: string[]) => exec(ffmpegPath(), ['-hide_banner', '-nostats', ...args], { maxBuffer: 64 * 1024 * 1024 });

let app: TestRuntime;
let files: E2eService['files'];
let receiver: E2eService['receiver'];
let work: string;
let musicFiles: Awaited<ReturnType<typeof startFileServer>>;

beforeAll(async () => {
  ({ app, files, receiver, work } = await startE2eService('vidbot-e2e-music-', { seconds: 3 }));
  const music = join(work, 'music.m4a');
  await ffmpeg(['-y', '-f', 'lavfi', '-i', 'sine=f=13000:sample_rate=48000:d=30', '-ac', '2', '-c:a', 'aac', '-b:a', '192k', music]);
  musicFiles = await startFileServer({ '/music.m4a': music });
}, 180_000);
afterAll(async () => {
  await musicFiles?.stop();
  await stopE2eService({ app, files, receiver });
});

const api = apiOf(() => app);

/** RMS level (dB) of the 13 kHz band of `path` from `from` to `to` seconds. */
async function musicLevelDb(path: string, from: number, to: number): Promise<number> {
  const band = 'bandpass=f=13000:width_type=h:w=400,bandpass=f=13000:width_type=h:w=400';
  const { stderr } = await ffmpeg([
    '-ss',
    String(from),
    '-t',
    String(to - from),
    '-i',
    path,
    '-vn',
    '-af',
    `${band},astats=metadata=0`,
    '-f',
    'null',
    '-',
  ]);
  const db = /RMS level dB: (-?[\d.]+|-inf)/.exec(stderr.slice(stderr.lastIndexOf('Overall')))?.[1];
  return db === undefined || db === '-inf' ? -200 : Number(db);
}

const seconds = (t: string) => t.split(':').reduce((n, part) => n * 60 + Number(part), 0);

describe('music, end to end', () => {
  it('is ducked under real speech by at least 12 dB and comes back in the silences', async () => {
    const response = await api('/v1/create_video', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        webhook: receiver.url,
        music: { url: `${musicFiles.base}/music.m4a`, volume: 0.5 },
        clips: [
          {
            bot_uid: 'bot_ava',
            text: 'Music plays under my voice, softly, while I tell you about our new product and all it can do.',
            transitions: 'fade_in fade_out',
          },
          {
            bot_uid: 'bot_leo',
            text: 'And it carries on under mine, without a break, until the very end of this short video.',
            transitions: 'fade_in fade_out',
          },
        ],
      }),
    });
    expect(response.status).toBe(202);
    const { video_id: videoId } = (await response.json()) as { video_id: string };
    const { event, video } = await finishedVideo({ receiver }, api, videoId);
    expect(event.type, JSON.stringify(video.error)).toBe('video.completed');
    expect(video.music).toEqual({ url: `${musicFiles.base}/music.m4a`, volume: 0.5 });

    const path = join(work, `${videoId}.mp4`);
    await writeFile(path, Buffer.from(await (await fetch(video.output.download_url)).arrayBuffer()));
    const probed = await probeFile(path);
    expect(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`)).toEqual(['video:h264', 'audio:aac']);
    const duration = Number(probed.format.duration);

    const vtt = await (await fetch(video.output.captions.vtt_url)).text();
    const cues = [...vtt.matchAll(/([\d:.]+) --> ([\d:.]+)/g)].map((m) => ({ start: seconds(m[1]!), end: seconds(m[2]!) }));
    expect(cues.length).toBeGreaterThanOrEqual(2);
    // Speech: inside each cue, away from its ramps. Silence: the gap between the clips' speech (the first clip's
    // fade out and the second's fade in), away from the ramps; both clear of the video's own fade in and out.
    const first = video.clips[0].duration_seconds as number;
    const lastOfFirst = cues.filter((c) => c.start < first).at(-1)!;
    const firstOfSecond = cues.find((c) => c.start >= first)!;
    const silence = { from: lastOfFirst.end + 0.25, to: firstOfSecond.start - 0.25 };
    expect(silence.to - silence.from).toBeGreaterThan(0.3);
    const pause = await musicLevelDb(path, silence.from, silence.to);
    expect(pause).toBeGreaterThan(-45);
    const measured = cues.filter((c) => c.start > 2 && c.end < duration - 2 && c.end - c.start > 0.8);
    expect(measured.length).toBeGreaterThanOrEqual(1);
    for (const cue of measured) {
      const underSpeech = await musicLevelDb(path, cue.start + 0.3, cue.end - 0.3);
      expect(pause - underSpeech, `cue ${cue.start}-${cue.end}`).toBeGreaterThanOrEqual(12);
    }
  }, 240_000);
});
