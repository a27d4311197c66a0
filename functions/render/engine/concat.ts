/** concatClips: joins rendered clips in order by stream copy (concat demuxer), no re-encode. */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { probeDuration, runFfmpeg } from './process.ts';
import { VIDEO_CONTENT_TYPE, VOICE_CONTENT_TYPE } from './formats.ts';
import type { ConcatInput, ConcatOutput } from './types.ts';

/** A line of the concat demuxer's list: single quotes escaped as the demuxer expects. */
const listLine = (path: string) => `file '${path.replace(/'/g, `'\\''`)}'`;

export async function concatClips(input: ConcatInput): Promise<ConcatOutput> {
  if (!input.parts.length) throw new Error('nothing to concatenate');
  const list = join(input.workDir, 'concat.txt');
  writeFileSync(list, `${input.parts.map(listLine).join('\n')}\n`);
  const voice = input.mode === 'voice';
  const path = join(input.workDir, voice ? 'video.mp3' : 'video.mp4');
  await runFfmpeg([
    '-y', '-f', 'concat', '-safe', '0', '-i', list,
    '-map', '0', '-c', 'copy',
    ...(voice ? [] : ['-movflags', '+faststart']),
    path,
  ]);
  return {
    path,
    contentType: voice ? VOICE_CONTENT_TYPE : VIDEO_CONTENT_TYPE,
    durationSeconds: await probeDuration(path),
    sizeBytes: statSync(path).size,
  };
}
