/** Running ffmpeg and ffprobe: argument arrays only (never a shell), stderr kept for the error message. */
import { spawn } from 'node:child_process';
import { ffmpegPath, ffprobePath } from './binaries.ts';

export class MediaToolError extends Error {
  constructor(
    message: string,
    readonly tool: string,
    readonly exitCode: number | null,
    readonly stderrTail: string,
    /** Set when the tool was killed by a signal (SIGKILL: out of memory), which makes the failure transient. */
    readonly signal?: NodeJS.Signals | null,
  ) {
    super(message);
    this.name = 'MediaToolError';
  }
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

const tail = (text: string, lines = 15) => text.trim().split('\n').slice(-lines).join('\n');

/** Runs a tool to completion; rejects with the tail of its stderr on a non-zero exit. */
export function run(binary: string, args: string[], options: { stdin?: Buffer } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      if (err.length > 200_000) err = err.slice(-100_000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout: Buffer.concat(out), stderr: err });
      else reject(new MediaToolError(`${binary.split('/').pop()} exited with ${signal ?? code}: ${tail(err, 5)}`, binary, code, tail(err), signal));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin);
  });
}

export const runFfmpeg = (args: string[], options?: { stdin?: Buffer }) =>
  run(ffmpegPath(), ['-hide_banner', '-nostats', '-loglevel', 'error', ...args], options);

export interface ProbeStream {
  codec_type: 'video' | 'audio' | string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

export interface ProbeResult {
  format: { duration?: string; format_name?: string; size?: string };
  streams: ProbeStream[];
}

export async function probe(path: string): Promise<ProbeResult> {
  const { stdout } = await run(ffprobePath(), ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path]);
  return JSON.parse(stdout.toString()) as ProbeResult;
}

export async function probeDuration(path: string): Promise<number> {
  const result = await probe(path);
  const duration = Number(result.format.duration);
  if (!Number.isFinite(duration)) throw new Error(`no duration in ${path}`);
  return duration;
}
