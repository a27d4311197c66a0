/**
 * The pinned media pipeline (functions/render/engine/media.ts): every accepted background format renders, every
 * file of the security review is refused before it is rendered (quickly, in our words), and the watchdog kills
 * a run over its budget or without progress, leaving nothing running.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_BOTS } from '#domain/bot';
import { TRANSITION_SECONDS } from '#domain/clip';
import { JobFailure } from '#domain/errors';
import { limits } from '#domain/limits';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { BACKGROUND_FORMATS, inspectBackground } from '#functions/media/background-media.ts';
import { budgetFor, MediaBudgetError, MediaRejectedError, runFfmpeg } from '#functions/media/media.ts';
import { parseInputReport } from '#functions/media/probe.ts';
import { fetchBackground } from '#functions/render/background.ts';
import { renderClip } from '#functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '#functions/render/speech/index.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { functions } from '#infra/wiring.ts';
import { type SampleFormat, writeDeclaredSizePng, writeHlsPolyglot, writeHugePng, writeSample } from '../../support/hostile-media.ts';
import { probeFile } from '../../support/media.ts';
import { assertPublicMessage } from '../../support/public-errors.ts';
import { frameRgb, pixel } from '../../support/render-media.ts';

const AVA_VOICE = voiceToSpeak(BUILT_IN_BOTS[0]!.voice, undefined, { polly: false });

const FRAME = frameSizeOf(DEFAULT_SHAPE);

let root: string;
let n = 0;
const dir = () => {
  const d = join(root, `w${n++}`);
  mkdirSync(d);
  return d;
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vidbot-media-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

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

/** Is a process still there (and not a zombie)? */
const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(execFileSync('cat', [`/proc/${pid}/status`]).toString());

describe('accepted background formats', () => {
  const formats: { format: SampleFormat; demuxer: string; still?: boolean; audio: boolean }[] = [
    { format: 'mp4', demuxer: 'mov', audio: true },
    { format: 'mov', demuxer: 'mov', audio: true },
    { format: 'webm', demuxer: 'matroska', audio: true },
    { format: 'mkv', demuxer: 'matroska', audio: true },
    { format: 'avi', demuxer: 'avi', audio: true },
    // Remuxed into Matroska by stream copy (ffmpeg 4.1 cannot seek them to loop).
    { format: 'ts', demuxer: 'matroska', audio: true },
    { format: 'mpg', demuxer: 'matroska', audio: true },
    { format: 'gif', demuxer: 'gif', audio: false },
    { format: 'png', demuxer: 'png_pipe', still: true, audio: false },
    { format: 'jpg', demuxer: 'jpeg_pipe', still: true, audio: false },
    { format: 'webp', demuxer: 'webp_pipe', still: true, audio: false },
  ];

  it('lists exactly the formats of the README', () => {
    expect(BACKGROUND_FORMATS.map((f) => f.label)).toEqual([
      'MP4 / MOV',
      'WebM / Matroska',
      'AVI',
      'MPEG-TS',
      'MPEG-PS',
      'GIF',
      'PNG',
      'JPEG',
      'WebP',
    ]);
  });

  for (const { format, demuxer, still, audio } of formats) {
    it(`renders a ${format} background, looped to cover a clip longer than the file`, async () => {
      const work = dir();
      const sample = await writeSample(work, format);
      const media = await inspectBackground(sample, work);
      expect(media.format.demuxer).toBe(demuxer);
      expect(Boolean(media.format.still)).toBe(Boolean(still));
      expect([media.width, media.height]).toEqual([320, 240]);
      expect(media.hasAudio).toBe(audio);

      // About 2.5 s of speech: longer than the 1.5 s sample, so a moving background must loop.
      const clip = await renderClip({
        bot: BUILT_IN_BOTS[0]!,
        voice: AVA_VOICE,
        text: 'This background is looped under the presenter.',
        position: 'bottom-right',
        removeBotBackground: false,
        background: media,
        backgroundVolume: 0.5,
        transitions: {},
        frame: FRAME,
        mode: 'video',
        workDir: work,
        speech: new EspeakSpeechEngine(),
      });
      const probed = await probeFile(clip.path);
      expect(Number(probed.format.duration)).toBeCloseTo(clip.durationSeconds, 0);
      expect(clip.durationSeconds).toBeGreaterThan(1.5);
      // The sample's blue (0x2060d0) fills the frame away from the bot, at the start and near the end.
      for (const at of [0.2, clip.durationSeconds - 0.2]) {
        const [r, g, b] = pixel(await frameRgb(clip.path, at), 100, 100, FRAME.width);
        expect(Math.abs(r - 0x20) + Math.abs(g - 0x60) + Math.abs(b - 0xd0), `${format} at ${at} s: rgb ${r},${g},${b}`).toBeLessThan(40);
      }
    }, 60_000);
  }
});

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
      expect(error).toBeInstanceOf(JobFailure);
      expect((error as JobFailure).code).toBe('background_invalid');
      expect((error as JobFailure).message).toBe('the background is 30000x30000 pixels; at most 8192 pixels on either side are accepted');
      const missing = await fetchBackground(`${server.base}/missing.mp4`, join(work, 'b2'), work, 'local').catch((e: unknown) => e);
      expect((missing as JobFailure).message).toBe('the background URL answered HTTP 404');
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

describe('the watchdog', () => {
  it('kills a run over its budget: MediaBudgetError, within a second of the budget, and the process is gone', async () => {
    const started = Date.now();
    let pid: number | undefined;
    const error = await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc=s=640x360:r=30:d=3600', '-f', 'null', '-'], {
      budgetSeconds: 2,
      onSpawn: (p) => (pid = p),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaBudgetError);
    expect((error as MediaBudgetError).reason).toBe('budget');
    expect(Date.now() - started).toBeLessThan(3500);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid!)).toBe(false);
  });

  it('kills a run that makes no progress (an input that never delivers a byte)', async () => {
    const fifo = join(dir(), 'never');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    let pid: number | undefined;
    const error = await runFfmpeg(['-protocol_whitelist', 'file', '-f', 'mpegts', '-i', fifo, '-f', 'null', '-'], {
      budgetSeconds: 60,
      stallSeconds: 2,
      onSpawn: (p) => (pid = p),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaBudgetError);
    expect((error as MediaBudgetError).reason).toBe('stall');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(alive(pid!)).toBe(false);
  });

  it('lets a run that keeps making progress go on past the stall limit', async () => {
    // -progress reports about every half second once encoding runs; 3 s leaves room for a slow start on a busy machine.
    const result = await runFfmpeg(['-re', '-f', 'lavfi', '-i', 'testsrc=s=64x64:r=10:d=7', '-f', 'null', '-'], {
      budgetSeconds: 30,
      stallSeconds: 3,
    });
    expect(result.exitCode).toBe(0);
  });

  it('gives the longest clip a budget that, with its download, probe and remux, ends before the render function does', () => {
    const longest = limits.maxSpeechSeconds + 2 * TRANSITION_SECONDS;
    const fetchProbeRemux = limits.backgroundTimeoutMs / 1000 + 20 + 60;
    expect(budgetFor(longest) + fetchProbeRemux).toBeLessThan(functions.render.timeoutSeconds);
    expect(budgetFor(10)).toBeLessThan(budgetFor(100));
  });
});

describe('frames piped to ffmpeg', () => {
  it('arrive intact when the caller fills one buffer for every frame (no copy is made, one frame in flight)', async () => {
    const side = 32; // 1 KiB frames: far under the pipe's high-water mark, where a write returns at once
    const shared = Buffer.alloc(side * side);
    const count = 90;
    const { stdout } = await runFfmpeg(
      [
        '-protocol_whitelist',
        'pipe',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-s',
        `${side}x${side}`,
        '-r',
        '30',
        '-i',
        'pipe:0',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'gray',
        '-',
      ],
      { budgetSeconds: 30, captureStdout: true, frames: { count, frame: (i) => shared.fill(i) } },
    );
    expect(stdout.length).toBe(count * side * side);
    for (let i = 0; i < count; i++) {
      const frame = stdout.subarray(i * side * side, (i + 1) * side * side);
      expect(frame.every((v) => v === i)).toBe(true);
    }
  });
});
