/**
 * `npx tsx infra/scripts/measure/recorded-steps.ts [--seconds 60] [--rounds 2]`: what each step of a recorded clip's
 * speech costs, in CPU seconds of this process and of its ffmpeg children, with the code a render runs: the bench's
 * LibriVox recording (bench/service.ts benchRecording) prepared (media/recording.ts: probe, one run decoding it and
 * measuring its loudness, one raising it and limiting its peaks) and aligned to its transcript through espeak-ng en-us+m3 and the
 * warp (speech/synthesis-alignment.ts), as the render aligns an English recording over 60 s; `rounds` times in one
 * process, as one render environment prepares clip after clip (espeak-ng's instance kept after the first, its code
 * compiled further as it runs). Run it under `node --cpu-prof --import tsx` for a profile by function.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { transcriptWords } from '#functions/render/speech/alignment.ts';
import { alignBySynthesis } from '#functions/render/speech/synthesis-alignment.ts';
import { prepareRecording } from '#media/recording';
import { readWav } from '#media/wav';
import { benchRecording } from '../bench/service.ts';
import { argument } from '../bench/support.ts';

const work = mkdtempSync(join(tmpdir(), 'vidbot-recorded-steps-'));
/** This process's and its waited-for children's CPU seconds (/proc/self/stat utime+stime, cutime+cstime). */
function cpu(): { self: number; children: number } {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const tick = (i: number) => Number(fields[i - 3]) / 100;
  return { self: tick(14) + tick(15), children: tick(16) + tick(17) };
}

async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  const [before, started] = [cpu(), performance.now()];
  const result = await run();
  const after = cpu();
  console.log(
    `${label}: ${((performance.now() - started) / 1000).toFixed(2)} s wall, ${(after.self - before.self).toFixed(2)} s CPU here, ` +
      `${(after.children - before.children).toFixed(2)} s in ffmpeg`,
  );
  return result;
}

try {
  const { path, transcript } = benchRecording(join(work, 'bench.wav'), Number(argument('seconds') ?? 60));
  const words = transcriptWords(transcript);
  const rounds = Number(argument('rounds') ?? 2);
  for (const round of Array.from({ length: rounds }, (_, i) => (i === 0 ? 'first' : `again (${i + 1})`))) {
    const dir = mkdtempSync(join(work, 'round-'));
    const prepared = await step(`${round}: prepared`, () => prepareRecording(path, dir, limits.maxRecordedSpeechSeconds));
    const pcm = await step(`${round}: read`, async () => readWav(prepared.alignmentWavPath).samples);
    await step(`${round}: aligned (${prepared.durationSeconds.toFixed(2)} s, ${words.length} words)`, () =>
      alignBySynthesis(pcm, speechScriptOf(transcript), words, 'espeak:en-us+m3', dir),
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
