/**
 * `npx tsx infra/scripts/bench/inspection.ts [-- --rounds N]`: what a background's inspection costs in a process of
 * the local runtime's size (1.3 GB held: each ffmpeg start forks it), as the render does it: the ordinary request's
 * 12-s background read from a bucket, hashed and inspected afresh, then once more as bytes the account had inspected.
 * Prints the medians of Node's CPU, ffmpeg's (the waited-for children) and the wall time, and ffmpeg runs.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mediaRunsStarted } from '../../../functions/media/media.ts';
import { fetchedBackground } from '../../../functions/render/background.ts';
import { median } from './report.ts';
import { argument, ordinaryBackground } from './support.ts';

const ticks = () => {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return { node: (Number(f[11]) + Number(f[12])) / 100, ffmpeg: (Number(f[13]) + Number(f[14])) / 100 };
};

async function main() {
  const rounds = Number(argument('rounds') ?? 5);
  const root = resolve(import.meta.dirname, '../../..');
  const background = await ordinaryBackground(join(root, '.local', 'samples', 'background-ordinary-testsrc2-12s-1280x720.mp4'));
  const held = Buffer.alloc(1.3 * 2 ** 30, 1);
  const work = mkdtempSync(join(tmpdir(), 'vidbot-inspection-'));
  const bucket = { getToFile: async (_key: string, path: string) => (copyFileSync(background, path), true) };
  const measured: Record<string, { node: number; ffmpeg: number; wall: number; runs: number }[]> = { afresh: [], again: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      // A new account each round: its first inspection is afresh, its second finds its verdict.
      for (const name of ['afresh', 'again']) {
        const before = ticks();
        const runs = mediaRunsStarted();
        const started = performance.now();
        await fetchedBackground(bucket, 'background', join(work, 'background'), work, undefined, `account-${round}`);
        const after = ticks();
        const wall = (performance.now() - started) / 1000;
        measured[name]!.push({ node: after.node - before.node, ffmpeg: after.ffmpeg - before.ffmpeg, wall, runs: mediaRunsStarted() - runs });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  for (const [name, m] of Object.entries(measured)) {
    const of = (k: 'node' | 'ffmpeg' | 'wall') => median(m.map((x) => x[k])).toFixed(2);
    console.log(
      `${name}: ffmpeg runs ${m[0]!.runs}; CPU node ${of('node')} s, ffmpeg ${of('ffmpeg')} s; wall ${of('wall')} s (median of ${m.length})`,
    );
  }
  console.log(`load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${(held.length / 2 ** 30).toFixed(1)} GB held`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
