/**
 * `npx tsx infra/scripts/measure/espeak-synthesis.ts [-- --clips N]`: what a synthesised clip's speech costs in CPU
 * (all of this process's threads, espeak-ng's included): the bench's 62-s text in Ava's espeak-ng voice, N clips
 * (default 5) read in a fresh instance per phrase and then N in the thread's kept instance (what the render does),
 * after one clip of each to start the thread and compile the code. Prints each way's median per clip and checks that
 * both wrote the same audio.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechScriptOf } from '#domain/lexicon';
import { EspeakSpeechEngine } from '#functions/render/speech/espeak.ts';
import { median } from '../bench/report.ts';
import { argument, BENCH_TEXT } from '../bench/support.ts';

const clips = Number(argument('clips') ?? 5);
const voice = { id: 'espeak:en-us+f3' };
const script = speechScriptOf(BENCH_TEXT);
const work = mkdtempSync(join(tmpdir(), 'vidbot-espeak-synthesis-'));
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
try {
  const wavs: Record<string, Buffer> = {};
  for (const [name, reuse] of [
    ['fresh instance per phrase', false],
    ['kept instance', true],
  ] as const) {
    const engine = new EspeakSpeechEngine(reuse);
    await engine.synthesize(script, voice, mkdtempSync(join(work, 'warm-')));
    const seconds: number[] = [];
    let audio = 0;
    for (let i = 0; i < clips; i++) {
      const before = cpu();
      const spoken = await engine.synthesize(script, voice, mkdtempSync(join(work, 'clip-')));
      seconds.push(cpu() - before);
      audio = spoken.durationSeconds;
      wavs[name] = readFileSync(spoken.wavPath);
    }
    console.log(`${name}: ${median(seconds).toFixed(2)} CPU s a clip (median of ${clips}; ${audio.toFixed(1)} s of speech)`);
  }
  const [a, b] = Object.values(wavs);
  console.log(`the same audio: ${a!.equals(b!)}`);
  console.log(`load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}; ${new Date().toISOString()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
