/**
 * `npm run sample:background [-- <path> [seconds]]`: a deterministic 1280x720 30 fps background video with a
 * soft music-like chord, made by the engine's own ffmpeg. Default path .local/samples/background.mp4.
 * Also used by the tests and the benchmark (solid colours and tones for measurements).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runFfmpeg } from '../../functions/media/media.ts';

export interface SampleBackgroundOptions {
  seconds?: number;
  width?: number;
  height?: number;
  fps?: number;
  /** 'plasma': slowly drifting soft colour fields; 'solid': one flat colour (for pixel tests). */
  pattern?: 'plasma' | 'solid';
  /** Hex colour of the solid pattern, e.g. "0x20c040". */
  color?: string;
  /** 'chord': a soft A-major chord with a slow swell; 'tone': one sine at toneHz; 'none': no audio stream. */
  audio?: 'chord' | 'tone' | 'none';
  toneHz?: number;
}

export async function makeSampleBackground(path: string, options: SampleBackgroundOptions = {}): Promise<string> {
  const { seconds = 20, width = 1280, height = 720, fps = 30, pattern = 'plasma', color = '0x3060a0', audio = 'chord', toneHz = 440 } = options;
  mkdirSync(dirname(resolve(path)), { recursive: true });
  // The pattern is computed at 1/8 size and scaled up: smooth, and cheap to generate.
  const video =
    pattern === 'solid'
      ? `color=c=${color}:s=${width}x${height}:r=${fps}:d=${seconds}`
      : `nullsrc=s=${Math.ceil(width / 8)}x${Math.ceil(height / 8)}:r=${fps}:d=${seconds},` +
        `geq=r='110+70*sin(X/23+T*0.7)+40*sin(Y/17-T*0.4)':g='120+60*sin((X+Y)/29+T*0.5)':b='170+60*sin(Y/19+T*0.3)+25*sin(X/31-T*0.6)',` +
        `scale=${width}:${height}:flags=bicubic,format=yuv420p`;
  const sound =
    audio === 'chord'
      ? `aevalsrc='(0.5+0.5*sin(2*PI*t/8))*(0.10*sin(2*PI*220*t)+0.08*sin(2*PI*277.18*t)+0.07*sin(2*PI*329.63*t)+0.04*sin(2*PI*440*t))|(0.5+0.5*sin(2*PI*t/8+1))*(0.10*sin(2*PI*220*t)+0.08*sin(2*PI*277.18*t)+0.07*sin(2*PI*329.63*t)+0.04*sin(2*PI*554.37*t))':s=48000:d=${seconds}`
      : `aevalsrc='0.3*sin(2*PI*${toneHz}*t)|0.3*sin(2*PI*${toneHz}*t)':s=48000:d=${seconds}`;
  await runFfmpeg(
    [
      '-y',
      '-f',
      'lavfi',
      '-i',
      video,
      ...(audio === 'none' ? [] : ['-f', 'lavfi', '-i', sound]),
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '23',
      '-pix_fmt',
      'yuv420p',
      '-g',
      String(fps * 2),
      ...(audio === 'none' ? [] : ['-c:a', 'aac', '-b:a', '128k']),
      '-fflags',
      '+bitexact',
      '-flags:v',
      '+bitexact',
      '-flags:a',
      '+bitexact',
      '-t',
      String(seconds),
      '-movflags',
      '+faststart',
      path,
    ],
    { budgetSeconds: 900 },
  );
  return path;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [path = '.local/samples/background.mp4', seconds = '20'] = process.argv.slice(2);
  const started = Date.now();
  await makeSampleBackground(path, { seconds: Number(seconds) });
  console.log(`sample background: ${path} (${seconds} s) in ${Date.now() - started} ms`);
}
