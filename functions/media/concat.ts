/** concatClips: joins rendered clips in order by stream copy (concat demuxer), no re-encode. */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VIDEO_CONTENT_TYPE, VOICE_CONTENT_TYPE } from './formats.ts';
import { budgetUntil, runFfmpeg } from './media.ts';
import { probeDuration } from './probe.ts';

/** Joins clips we rendered (concat demuxer, stream copy); the parts may only be MP4 or MP3, and local. */
function concatArgs(list: string, output: string, voice: boolean): string[] {
  return [
    '-y',
    '-protocol_whitelist',
    'file',
    '-format_whitelist',
    `concat,${voice ? 'mp3' : 'mov'}`,
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-map',
    '0',
    '-c',
    'copy',
    ...(voice ? [] : ['-movflags', '+faststart']),
    output,
  ];
}

/** A line of the concat demuxer's list: single quotes escaped as the demuxer expects; with how long the part lasts, if given. */
const listLine = (path: string, seconds?: number) =>
  `file '${path.replace(/'/g, `'\\''`)}'${seconds === undefined ? '' : `\nduration ${seconds.toFixed(6)}`}`;

/**
 * How long a clip's picture lasts: the sum of its video packets' durations (a stream copy to framemd5, no decoding).
 * The concat list gives each part this length, so every part's picture starts on a frame of the joined video: by
 * default the demuxer starts the next part where the longer of the two streams ended (the sound, rounded to its
 * own frames), and a picture a fraction of a frame off left the joined video with a frame rate ffprobe reads as
 * 240 or 59.94 rather than 30.
 */
async function pictureSeconds(path: string): Promise<number> {
  const { stdout } = await runFfmpeg(
    ['-protocol_whitelist', 'file', '-format_whitelist', 'mov', '-f', 'mov', '-i', path, '-map', '0:v:0', '-c', 'copy', '-f', 'framemd5', '-'],
    { budgetSeconds: 60, captureStdout: true },
  );
  const text = stdout.toString('latin1');
  const tb = /^#tb 0: (\d+)\/(\d+)/m.exec(text);
  if (!tb) throw new Error(`no video time base for ${path}`);
  let ticks = 0;
  for (const line of text.split('\n')) if (/^0,/.test(line)) ticks += Number(line.split(',')[3]);
  return (ticks * Number(tb[1])) / Number(tb[2]);
}

export async function concatClips(input: ConcatInput): Promise<ConcatOutput> {
  if (!input.parts.length) throw new Error('nothing to concatenate');
  const list = join(input.workDir, 'concat.txt');
  const voice = input.mode === 'voice';
  const seconds = voice ? [] : await Promise.all(input.parts.map(pictureSeconds));
  writeFileSync(list, `${input.parts.map((part, i) => listLine(part, seconds[i])).join('\n')}\n`);
  const path = join(input.workDir, voice ? 'video.mp3' : 'video.mp4');
  // A stream copy runs far faster than real time: its budget is for the parts' length, and ends at the deadline.
  await runFfmpeg(concatArgs(list, path, voice), { budgetSeconds: budgetUntil(input.seconds, input.deadline) });
  return {
    path,
    contentType: voice ? VOICE_CONTENT_TYPE : VIDEO_CONTENT_TYPE,
    durationSeconds: await probeDuration(path, voice ? 'mp3' : 'mov'),
    sizeBytes: statSync(path).size,
  };
}

export interface ConcatInput {
  /** Clip files in order (all produced by renderClip in the same mode). */
  parts: string[];
  mode: 'video' | 'voice';
  /** The parts' length together, as their renders recorded it. */
  seconds: number;
  /** When the join must have ended (ms since the epoch): the function's own time limit, less a margin. */
  deadline?: number;
  workDir: string;
}

export interface ConcatOutput {
  path: string;
  contentType: string;
  durationSeconds: number;
  sizeBytes: number;
}
