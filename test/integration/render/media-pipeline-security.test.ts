/**
 * The pinned media pipeline (functions/render/engine/media.ts): every file of the security review is refused before
 * it is rendered (quickly, in our words), and the input report parser is not fooled by forged lines.
 */

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { JobFailedError } from '#domain/errors';
import { inspectBackground } from '#functions/media/background-media.ts';
import { MediaRejectedError, runFfmpeg } from '#functions/media/media.ts';
import { parseInputReport } from '#functions/media/probe.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { fetchBackground } from '../../support/fetch-then-inspect.ts';
import { writeDeclaredSizePng, writeHlsPolyglot, writeHugePng, writeSample } from '../../support/hostile-media.ts';
import { probeFile } from '../../support/media.ts';
import { AVA_VOICE, FRAME, workDirs } from '../../support/media-pipeline.ts';
import { assertPublicMessage } from '../../support/public-errors.ts';

const dir = workDirs();

/** The error an inspection throws, with its message checked for internals. */
async function refusal(path: string): Promise<MediaRejectedError> {
  const error = await inspectBackground(path, dir()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaRejectedError);
  assertPublicMessage((error as Error).message, 'MediaRejectedError');
  return error as MediaRejectedError;
}

describe('files of the security review', () => {
  it('a 66-byte PNG declaring 30000x30000 is refused from its header, before any decoding', async () => {
    const path = writeDeclaredSizePng(join(dir(), 'bomb.png'), 30000, 30000);
    const started = Date.now();
    const error = await refusal(path);
    expect(error.reason).toMatch(/30000x30000 pixels; at most 8192/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a real 16000x16000 PNG (under a megabyte) is refused before decoding', async () => {
    const path = await writeHugePng(join(dir(), 'huge.png'), 16000, 16000);
    const started = Date.now();
    const error = await refusal(path);
    expect(error.reason).toMatch(/16000x16000 pixels/);
    expect(Date.now() - started).toBeLessThan(1000);
  }, 60_000);

  it('a PNG within the side limit but over the pixel limit is refused', async () => {
    const error = await refusal(writeDeclaredSizePng(join(dir(), 'wide.png'), 8000, 8000));
    expect(error.reason).toMatch(/8000x8000 pixels; at most 35,389,440 pixels/);
  });

  it('a PNG within the limits but with its picture data cut short renders at once (as a browser shows it), never loops', async () => {
    const work = dir();
    const media = await inspectBackground(writeDeclaredSizePng(join(work, 'truncated.png'), 640, 480), work);
    const started = Date.now();
    const clip = await renderClip({
      bot: BUILT_IN_BOTS[0]!,
      voice: AVA_VOICE,
      text: 'Hello there.',
      position: 'center',
      removeBotBackground: false,
      background: media,
      backgroundVolume: 0,
      transitions: {},
      frame: FRAME,
      mode: 'video',
      workDir: work,
      speech: new EspeakSpeechEngine(),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(Number((await probeFile(clip.path)).format.duration)).toBeCloseTo(clip.durationSeconds, 0);
  });

  it('a video whose picture is wider than 8192 is refused by the probe', async () => {
    const work = dir();
    const path = join(work, 'wide.mp4');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=s=8200x16:d=0.2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path], { budgetSeconds: 60 });
    expect((await refusal(path)).reason).toMatch(/8200x16 pixels; at most 8192/);
  });

  it('a video declaring 1000 frames per second is refused', async () => {
    const work = dir();
    const path = join(work, 'fast.mp4');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'color=s=64x64:r=1000:d=0.2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', path], { budgetSeconds: 60 });
    expect((await refusal(path)).reason).toMatch(/1000 frames per second; at most 240/);
  });

  it('an HLS playlist with MPEG-PS appended (segment: a local file) is refused, and the local file never becomes a background', async () => {
    const work = dir();
    const secret = await writeSample(work, 'mp4', '0xff0000'); // "a video file elsewhere on the host"
    const ps = await writeSample(work, 'mpg');
    const path = await writeHlsPolyglot(join(work, 'polyglot'), secret, ps);
    expect((await refusal(path)).reason).toMatch(/not a video or picture in an accepted format/);
  });

  it('MPEG-PS with an HLS playlist appended is read as MPEG-PS (the pinned demuxer), never as a playlist', async () => {
    const work = dir();
    const ps = await writeSample(work, 'mpg');
    const secret = await writeSample(work, 'mp4', '0xff0000');
    const path = join(work, 'ps-then-hls');
    execFileSync('sh', ['-c', `cat "${ps}" > "${path}" && printf '#EXTM3U\\n#EXTINF:2,\\nfile://${secret}\\n' >> "${path}"`]);
    const media = await inspectBackground(path, work);
    expect(media.format.label).toBe('WebM / Matroska'); // remuxed from MPEG-PS
    expect([media.width, media.height]).toEqual([320, 240]);
  });

  it('text is not a background; neither is an audio file', async () => {
    const work = dir();
    const text = join(work, 'text');
    execFileSync('sh', ['-c', `echo 'this is not a video at all' > "${text}"`]);
    expect((await refusal(text)).reason).toMatch(/accepted format/);
    const mp3 = join(work, 'tone.mp3');
    await runFfmpeg(['-y', '-f', 'lavfi', '-i', 'sine=d=1', mp3], { budgetSeconds: 60 });
    expect((await refusal(mp3)).reason).toMatch(/accepted format/);
  });

  it('fetchBackground turns every refusal into background_invalid with our words and no URL', async () => {
    const work = dir();
    const bomb = writeDeclaredSizePng(join(work, 'bomb.png'), 30000, 30000);
    const server = await startFileServer({ '/bomb.png': bomb });
    try {
      const error = await fetchBackground(`${server.base}/bomb.png?sig=secret`, join(work, 'background'), work, 'local').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(JobFailedError);
      expect((error as JobFailedError).code).toBe('background_invalid');
      expect((error as JobFailedError).message).toBe('the background is 30000x30000 pixels; at most 8192 pixels on either side are accepted');
      const missing = await fetchBackground(`${server.base}/missing.mp4`, join(work, 'b2'), work, 'local').catch((e: unknown) => e);
      expect((missing as JobFailedError).message).toBe('the background URL answered HTTP 404');
    } finally {
      await server.stop();
    }
  });
});

describe('the report parser', () => {
  it('reads streams, sizes, rates and the demuxer', () => {
    const report = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'bg':",
      '  Metadata:',
      '    major_brand     : isom',
      '  Duration: 00:01:02.50, start: 0.000000, bitrate: 145 kb/s',
      '    Stream #0:0(eng): Video: h264 (High) (avc1 / 0x31637661), yuv420p, 1920x1080 [SAR 1:1 DAR 16:9], 58 kb/s, 29.97 fps, 29.97 tbr, 12800 tbn (default)',
      '    Stream #0:1(eng): Audio: aac (LC) (mp4a / 0x6134706D), 44100 Hz, stereo, fltp, 69 kb/s (default)',
    ].join('\n');
    expect(parseInputReport(report)).toEqual({
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: 62.5 },
      streams: [
        { index: 0, codec_type: 'video', codec_name: 'h264', width: 1920, height: 1080, fps: 29.97 },
        { index: 1, codec_type: 'audio', codec_name: 'aac' },
      ],
    });
  });

  // MP4 metadata keys (use_metadata_tags) are printed unescaped at the start of a report line: a key holding a
  // line break and a "Stream" line of its own forges one, as the review showed with this binary.
  const forge = (_: string) => '-metadata';
  const forgedKey = (line: string) => `x\n    ${line}\nk=v`;

  it('a forged "Stream" line can add a stream to the report, but not hide the real, larger picture', async () => {
    const work = dir();
    const path = join(work, 'forged-small.mp4');
    await runFfmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=s=8200x16:d=0.2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        'use_metadata_tags',
        forge(''),
        forgedKey('Stream #0:7: Video: h264, yuv420p, 16x16, 25 fps'),
        '-f',
        'mp4',
        path,
      ],
      { budgetSeconds: 60 },
    );
    const report = (
      await runFfmpeg(['-protocol_whitelist', 'file', '-i', path], { budgetSeconds: 20, logLevel: 'info', anyExit: true, stallSeconds: false })
    ).stderr;
    expect(report).toMatch(/^ {4}Stream #0:7: Video: h264, yuv420p, 16x16/m); // the forgery reached the report
    expect((await refusal(path)).reason).toMatch(/8200x16 pixels/);
  });

  it('a forged audio line does not make a silent video "have sound"; a forged video line does not make a sound a background', async () => {
    const work = dir();
    const silent = join(work, 'forged-audio.mp4');
    await runFfmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=s=320x240:d=1',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        'use_metadata_tags',
        forge(''),
        forgedKey('Stream #0:5: Audio: aac (LC), 48000 Hz, stereo, fltp'),
        '-f',
        'mp4',
        silent,
      ],
      { budgetSeconds: 60 },
    );
    const media = await inspectBackground(silent, work);
    expect(media.hasAudio).toBe(false);
    // It renders (the graph does not ask for a sound the file lacks).
    const clip = await renderClip({
      bot: BUILT_IN_BOTS[0]!,
      voice: AVA_VOICE,
      text: 'Hello there.',
      position: 'center',
      removeBotBackground: false,
      background: media,
      backgroundVolume: 1,
      transitions: {},
      frame: FRAME,
      mode: 'video',
      workDir: work,
      speech: new EspeakSpeechEngine(),
    });
    expect(Number((await probeFile(clip.path)).format.duration)).toBeCloseTo(clip.durationSeconds, 0);

    const sound = join(work, 'forged-video.mp4');
    await runFfmpeg(
      [
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=d=1',
        '-c:a',
        'aac',
        '-movflags',
        'use_metadata_tags',
        forge(''),
        forgedKey('Stream #0:5: Video: h264, yuv420p, 320x240, 25 fps'),
        '-f',
        'mp4',
        sound,
      ],
      { budgetSeconds: 60 },
    );
    expect((await refusal(sound)).reason).toMatch(/has no video picture/);
  });
});
