/**
 * `npx tsx infra/scripts/bench/ffmpeg-pass.ts [-- --seconds 20 --rounds 2]`: is the render's ffmpeg pass dearer than
 * the floor? The ordinary request's command line (16:9 720p over the looped 12-s `testsrc2` background: the bot
 * overlaid, fades, the voice mixed with the background's sound, the poster split off), with a generated 288x332
 * RGBA picture and tone in place of Node's bot frames and speech so that only ffmpeg is measured, beside the floor
 * and the same pass without the poster, the fades or the bot. The runs alternate, `rounds` times; each prints its
 * CPU seconds (user + system of the ffmpeg process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AUDIO_ENCODE_ARGS, VIDEO_ENCODE_ARGS } from '../../../functions/media/formats.ts';
import { runFfmpeg } from '../../../functions/media/media.ts';
import { median } from './report.ts';
import { argument, cpuSeconds, loadAverage, ordinaryBackground } from './support.ts';

const seconds = Number(argument('seconds') ?? 20);
const rounds = Number(argument('rounds') ?? 2);
const fadeOut = seconds - 0.6;

const background = ['-f', 'mov', '-stream_loop', '-1', '-i'];
const bot = ['-f', 'lavfi', '-i', 'color=c=red@0.6:s=288x332:r=30,format=rgba'];
const voice = ['-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=22050:d=${seconds}`];
const encode = [...VIDEO_ENCODE_ARGS, '-r', '30', ...AUDIO_ENCODE_ARGS, '-t', String(seconds), '-movflags', '+faststart'];
const picture =
  '[0:v]scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1,fps=30,format=yuv420p,tpad=stop=-1:stop_mode=clone[bg]';
const sound =
  '[2:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=mono,adelay=600,apad[speech];' +
  '[0:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,volume=0.1[bed];' +
  `[speech][bed]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=c0+c2,afade=t=in:st=0:d=0.6,afade=t=out:st=${fadeOut}:d=0.6[a]`;
const overlay = "[bg][1:v]overlay=x='968':y='364':eval=init:eof_action=pass:format=yuv420";
const fades = `fade=t=in:st=0:d=0.6,fade=t=out:st=${fadeOut}:d=0.6`;

/** Each run's arguments after its background input file, `out` its output directory. */
const runs: Record<string, (file: string, out: string) => string[]> = {
  floor: (file, out) => [
    ...background,
    file,
    '-filter:v',
    'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1',
    ...encode,
    join(out, 'floor.mp4'),
  ],
  'render pass': (file, out) => [
    ...background,
    file,
    ...bot,
    ...voice,
    '-filter_complex',
    `${picture};${overlay},${fades},split=2[v][p];[p]trim=start_frame=33:end_frame=34[poster];${sound}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...encode,
    join(out, 'render.mp4'),
    '-map',
    '[poster]',
    '-frames:v',
    '1',
    '-q:v',
    '3',
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    join(out, 'poster.jpg'),
  ],
  'without the poster': (file, out) => [
    ...background,
    file,
    ...bot,
    ...voice,
    '-filter_complex',
    `${picture};${overlay},${fades}[v];${sound}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...encode,
    join(out, 'np.mp4'),
  ],
  'without the fades': (file, out) => [
    ...background,
    file,
    ...bot,
    ...voice,
    '-filter_complex',
    `${picture};${overlay}[v];${sound}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...encode,
    join(out, 'nf.mp4'),
  ],
  'without the bot': (file, out) => [
    ...background,
    file,
    ...bot,
    ...voice,
    '-filter_complex',
    `${picture};[bg]null[v];${sound}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...encode,
    join(out, 'nb.mp4'),
  ],
};

const file = await ordinaryBackground(
  join(import.meta.dirname, '..', '..', '..', '.local', 'samples', 'background-ordinary-testsrc2-12s-1280x720.mp4'),
);
const out = mkdtempSync(join(tmpdir(), 'vidbot-pass-'));
const cpu: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++)
  for (const [name, args] of Object.entries(runs)) {
    const before = cpuSeconds();
    await runFfmpeg(['-y', ...args(file, out)], { budgetSeconds: 1800, stallSeconds: false });
    (cpu[name] ??= []).push(cpuSeconds() - before);
    console.log(`${name.padEnd(20)} CPU ${(cpu[name].at(-1) ?? 0).toFixed(2)} s (load ${loadAverage()})`);
  }
console.log(`\n| ffmpeg run (${seconds} s of video) | CPU s (median of ${rounds}) |\n|---|---|`);
for (const [name, values] of Object.entries(cpu)) console.log(`| ${name} | ${median(values).toFixed(2)} |`);
rmSync(out, { recursive: true, force: true });
