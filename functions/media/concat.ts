/** concatClips: joins rendered clips in order by stream copy (concat demuxer), no re-encode. */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { limits } from '#domain/limits';
import { VIDEO_CONTENT_TYPE, VOICE_CONTENT_TYPE } from './formats.ts';
import { budgetFor, runFfmpeg } from './media.ts';
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

/** A line of the concat demuxer's list: single quotes escaped as the demuxer expects. */
const listLine = (path: string) => `file '${path.replace(/'/g, `'\\''`)}'`;

export async function concatClips(input: ConcatInput): Promise<ConcatOutput> {
  if (!input.parts.length) throw new Error('nothing to concatenate');
  const list = join(input.workDir, 'concat.txt');
  writeFileSync(list, `${input.parts.map(listLine).join('\n')}\n`);
  const voice = input.mode === 'voice';
  const path = join(input.workDir, voice ? 'video.mp3' : 'video.mp4');
  // A stream copy runs far faster than real time; the budget allows for the longest video there can be.
  await runFfmpeg(concatArgs(list, path, voice), { budgetSeconds: budgetFor(input.parts.length * limits.maxSpeechSeconds) });
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
  workDir: string;
}

export interface ConcatOutput {
  path: string;
  contentType: string;
  durationSeconds: number;
  sizeBytes: number;
}
