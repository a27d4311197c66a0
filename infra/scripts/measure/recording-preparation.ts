/**
 * `npx tsx infra/scripts/measure/recording-preparation.ts [-- --seconds N --rounds R]`: what a recorded clip's
 * preparation (functions/media/recording.ts prepareRecording) costs before its render pass: the bench's `recorded`
 * kind's recording (LibriVox sentences looped to N s, default 60; bench/service.ts benchRecording), prepared R times
 * (default 4). Prints each round's ffmpeg runs, their CPU (this process's waited-for children, /proc/self/stat) and
 * Node's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaRunsStarted } from '#functions/media/media.ts';
import { prepareRecording } from '#media/recording';
import { benchRecording } from '../bench/service.ts';
import { argument } from '../bench/support.ts';

const children = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};
const node = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const work = mkdtempSync(join(tmpdir(), 'vidbot-recording-preparation-'));
try {
  const { path } = benchRecording(join(work, 'recording.wav'), Number(argument('seconds') ?? 60));
  for (let round = 0; round < Number(argument('rounds') ?? 4); round++) {
    const [ffmpeg, own, runs] = [children(), node(), mediaRunsStarted()];
    const prepared = await prepareRecording(path, mkdtempSync(join(work, 'round-')), 600);
    console.log(
      `${prepared.durationSeconds.toFixed(1)} s prepared: ffmpeg runs ${mediaRunsStarted() - runs}, ffmpeg CPU ${(children() - ffmpeg).toFixed(2)} s, Node CPU ${(node() - own).toFixed(2)} s`,
    );
  }
  console.log(`load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${new Date().toISOString()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
