import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

/**
 * ffprobe (a 2023 build, a dev dependency) measures our own MP4 and MP3 outputs in tests: a second opinion from
 * another build than the ffmpeg that made them. It never reads callers' media (it crashes on MPEG-TS).
 */
const ffprobePath = () => (createRequire(import.meta.url)('@ffprobe-installer/ffprobe') as { path: string }).path;

const exec = promisify(execFile);

export interface Probed {
  format: { duration: string; format_name: string; size: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string; r_frame_rate?: string }[];
}

export async function probeFile(path: string): Promise<Probed> {
  const { stdout } = await exec(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]);
  return JSON.parse(stdout) as Probed;
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string, intervalMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
