import { readFileSync } from 'node:fs';

/** About sixty seconds of speech for bot_ava (espeak-ng, 160 words per minute): the benchmarks' clip. */
export const BENCH_TEXT = [
  'Welcome to vidbot, the service that turns your words into a presenter video in a few moments.',
  'You send the text, choose a bot, a position on the screen and a background, and we do the rest.',
  'Every clip is rendered on demand in the cloud, with the voice, the lip movement, the blinking and the transitions you asked for.',
  'When the video is ready, your webhook hears about it, and the finished file is waiting for you to download.',
  'Clips can be kept and reused, so the same introduction can open many videos without being rendered again.',
  'Behind the scenes, a queue feeds the renderers, each clip is drawn frame by frame, and the parts are joined without re-encoding.',
  'Each bot has its own look, its own voice and its own studio card, which you can remove so the presenter stands right on your background.',
  'Backgrounds loop or trim to fit the speech, and their own sound plays softly underneath at the volume you choose.',
  'Thank you for watching this short demonstration, and have a wonderful day.',
].join(' ');

/**
 * CPU seconds used so far by this process and its waited-for children (ffmpeg), from /proc/self/stat: unlike
 * wall time it does not depend on what else the machine is doing. Linux only; NaN elsewhere.
 */
export function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of stat(5); [0] here is field 3.
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100; // USER_HZ
  } catch {
    return Number.NaN;
  }
}
