/**
 * `npm run bench:music [-- --runs 3]`: what music adds to an assembly. The engine alone renders the benchmark's
 * ~60 s clip once (1280x720, no background), then the assembly's steps run on it, alternately: the join (two
 * halves' worth: the clip joined with itself by stream copy, then halved in the figures) and the music (the
 * "calm" preset made, or a 60 s MP3 decoded as a caller's file would be, then mixMusic laying it under the clip,
 * ducked at its cues: the picture copied, the sound encoded again). Prints the mean wall and CPU time of each.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_BOTS } from '#domain/bot';
import { DEFAULT_SHAPE, frameSizeOf } from '#domain/shape';
import { voiceToSpeak } from '#domain/voices';
import { ffmpegPath } from '../../../functions/media/binaries.ts';
import { concatClips } from '../../../functions/media/concat.ts';
import { decodeMusic, mixMusic } from '../../../functions/media/music.ts';
import { presetWav } from '../../../functions/media/music-presets.ts';
import { renderClip } from '../../../functions/render/engine/index.ts';
import { EspeakSpeechEngine } from '../../../functions/render/speech/index.ts';
import { argument, BENCH_TEXT, cpuSeconds, loadAverage } from './support.ts';

type Timing = { seconds: number; cpu: number };

async function timed(run: () => Promise<unknown>): Promise<Timing> {
  const cpu = cpuSeconds();
  const started = Date.now();
  await run();
  return { seconds: (Date.now() - started) / 1000, cpu: cpuSeconds() - cpu };
}

async function main() {
  const runs = Number(argument('runs') ?? 3);
  const root = mkdtempSync(join(tmpdir(), 'vidbot-bench-music-'));
  const bot = BUILT_IN_BOTS.find((b) => b.look === 'ava')!;
  const times: Record<'join' | 'preset' | 'url', Timing[]> = { join: [], preset: [], url: [] };
  try {
    const clipDir = mkdtempSync(join(root, 'clip-'));
    const clip = await renderClip({
      bot,
      text: BENCH_TEXT,
      position: 'bottom-right',
      removeBotBackground: false,
      backgroundVolume: 0,
      transitions: { entry: 'fade_in', exit: 'fade_out' },
      mode: 'video',
      frame: frameSizeOf(DEFAULT_SHAPE),
      voice: voiceToSpeak(bot.voice, undefined, { polly: false }),
      workDir: clipDir,
      speech: new EspeakSpeechEngine(),
    });
    const speech = clip.cues.map(({ startSeconds, endSeconds }) => ({ startSeconds, endSeconds }));
    // A caller's music file: the calm bed, looped to 60 s and encoded as MP3.
    const bed = join(root, 'calm.wav');
    writeFileSync(bed, presetWav('calm'));
    const mp3 = join(root, 'music.mp3');
    execFileSync(ffmpegPath(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-stream_loop',
      '-1',
      '-i',
      bed,
      '-t',
      '60',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '192k',
      mp3,
    ]);
    console.log(`clip: ${clip.durationSeconds.toFixed(1)} s, ${speech.length} cues`);

    const step = async (kind: keyof typeof times) => {
      const workDir = mkdtempSync(join(root, `${kind}-`));
      const input = { input: clip.path, mode: 'video' as const, volume: 0.25, speech, durationSeconds: clip.durationSeconds, workDir };
      const result = await timed(async () => {
        if (kind === 'join') return concatClips({ parts: [clip.path, clip.path], mode: 'video', seconds: 2 * clip.durationSeconds, workDir });
        const music = kind === 'preset' ? join(workDir, 'bed.wav') : await decodeMusic(mp3, workDir, clip.durationSeconds);
        if (kind === 'preset') writeFileSync(music, presetWav('calm'));
        return mixMusic({ ...input, music });
      });
      // The join ran on two copies of the clip: its cost for one 60 s video is half.
      if (kind === 'join') result.seconds /= 2;
      if (kind === 'join') result.cpu /= 2;
      rmSync(workDir, { recursive: true, force: true });
      console.log(`${kind.padEnd(6)} ${result.seconds.toFixed(2)} s wall, ${result.cpu.toFixed(2)} s CPU (load ${loadAverage()})`);
      times[kind].push(result);
    };
    await step('preset'); // warm-up: the file cache filled, the preset made once in this process
    for (let i = 0; i < runs; i++) for (const kind of ['join', 'preset', 'url'] as const) await step(kind);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const mean = (xs: Timing[], key: keyof Timing) => xs.reduce((n, x) => n + x[key], 0) / xs.length;
  console.log('');
  console.log(`${runs} run(s) each, alternating; 1280x720 clip of ${BENCH_TEXT.length} characters`);
  console.log(
    `join (stream copy, per 60 s):           ${mean(times.join, 'seconds').toFixed(2)} s wall, ${mean(times.join, 'cpu').toFixed(2)} s CPU`,
  );
  console.log(
    `MUSIC, preset "calm" (bed + mix):        ${mean(times.preset, 'seconds').toFixed(2)} s wall, ${mean(times.preset, 'cpu').toFixed(2)} s CPU`,
  );
  console.log(`MUSIC, a caller's MP3 (decode + mix):    ${mean(times.url, 'seconds').toFixed(2)} s wall, ${mean(times.url, 'cpu').toFixed(2)} s CPU`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
