/**
 * The prepare budget of a video bot (docs/video-bots.md#the-prepare-budget): a recording, looped to a given length
 * and scaled to a given height, is prepared into a look as the prepare job does (buildFootageLook), and the run
 * reports its wall time, the CPU seconds it spent (this process and the ffmpeg children it waited for) and the
 * machine's load while it ran, so a figure taken on a loaded machine can be read against the target.
 *
 *   npm run bench:prepare -- <recording> [--seconds 60] [--height 720]
 *
 * The recording is any MP4/MOV/WebM of one person facing the camera; nothing is kept (work in a temporary dir).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { buildFootageLook } from '../../../functions/prepare/footage/footage-look.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: 'string', default: '60' }, height: { type: 'string', default: '720' } },
});
const source = positionals[0];
if (!source) throw new Error('usage: npm run bench:prepare -- <recording> [--seconds 60] [--height 720]');
const seconds = Number(values.seconds);
const height = Number(values.height);
const root = mkdtempSync(join(tmpdir(), 'vidbot-bench-prepare-'));

try {
  // The recording looped (forward, as often as needed) to the length asked, at the height asked, 30 fps, H.264.
  const recording = join(root, 'recording.mp4');
  await runFfmpeg(
    [
      '-stream_loop',
      '-1',
      '-i',
      source,
      '-t',
      String(seconds),
      '-vf',
      `scale=-2:${height},fps=30`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-an',
      '-y',
      recording,
    ],
    { budgetSeconds: 1800 },
  );

  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]!), 5000);
  const cpuBefore = process.cpuUsage();
  const childrenBefore = await childCpuSeconds();
  const started = Date.now();
  let outcome: string;
  try {
    const look = await buildFootageLook(recording, statSync(recording).size, mkdtempSync(join(root, 'work-')));
    outcome = `ready: ${look.manifest.footage?.samples.length ?? 0} mouth samples, ${look.files.size} files`;
  } catch (error) {
    outcome = `refused: ${(error as { code?: string }).code ?? ''} ${(error as Error).message}`;
  } finally {
    clearInterval(sampler);
  }
  const wall = (Date.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const own = (cpu.user + cpu.system) / 1e6;
  // cpuUsage covers this process only; ffmpeg's share is read from the children's times (Linux /proc/self/stat).
  const childrenAfter = await childCpuSeconds();
  const children = childrenBefore === undefined || childrenAfter === undefined ? undefined : childrenAfter - childrenBefore;
  const load = loads.length ? loads.reduce((a, b) => a + b, 0) / loads.length : loadavg()[0]!;
  console.log(
    JSON.stringify(
      {
        recording: { seconds, height, fps: 30 },
        outcome,
        wall_seconds: Number(wall.toFixed(1)),
        cpu_seconds: { node: Number(own.toFixed(1)), ffmpeg_children: children === undefined ? null : Number(children.toFixed(1)) },
        load_average_while_running: Number(load.toFixed(1)),
        cores: cpus().length,
        target_wall_seconds: seconds <= 60 && height <= 720 ? 180 : 900,
      },
      null,
      2,
    ),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

/** The CPU seconds of the children this process waited for (fields 16 and 17 of /proc/self/stat), if readable. */
async function childCpuSeconds(): Promise<number | undefined> {
  try {
    const stat = await readFile('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the ")" field 3 is index 0: cutime is field 16, cstime field 17.
    const ticks = Number(fields[13]) + Number(fields[14]);
    return ticks / 100;
  } catch {
    return undefined;
  }
}
