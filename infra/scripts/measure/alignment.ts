/**
 * `npx tsx infra/scripts/measure/alignment.ts [--seconds 590] [--wav <file> --text <file> --voice <espeak voice>]
 * [--wrong <file>] [--shuffled]`: what aligning one recording costs and scores, in one process, with the code a
 * render runs (media/recording.ts prepares it; speech/alignment.ts and speech/synthesis-alignment.ts align it).
 *
 * - With `--seconds N` (default 590: the loop's next sentence would pass the 600 s a recording may last): the
 *   LibriVox sentences of Debian's pocketsphinx-testdata looped to N seconds (bench/service.ts benchRecording),
 *   aligned by SoundSwallower's English model and through espeak-ng's `en-us+m3` (DTW): each aligner's wall and CPU
 *   time, the process's peak resident memory after it, and the DTW path's word starts against SoundSwallower's
 *   (median, 90th percentile).
 * - With `--wav`, `--text` and `--voice`: that recording and its transcript through espeak-ng's voice (DTW), its
 *   match scores; with `--wrong`, the same recording with another transcript (it should be refused). With
 *   `--shuffled`, each transcript is also aligned with its words in the shuffled order the alignment's baseline uses
 *   (synthesis-alignment.ts shuffledTranscript): both path ratios, and the first over the second. The alignment
 *   itself refuses above either bar, so a refused transcript prints the ratio that refused it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { type Alignment, alignTranscript, TranscriptMismatchError, transcriptWords } from '#functions/render/speech/alignment.ts';
import { alignBySynthesis, shuffledTranscript } from '#functions/render/speech/synthesis-alignment.ts';
import { prepareRecording } from '#media/recording';
import { readWav } from '#media/wav';
import { benchRecording } from '../bench/service.ts';
import { argument } from '../bench/support.ts';

const work = mkdtempSync(join(tmpdir(), 'vidbot-alignment-'));
const f2 = (n: number) => n.toFixed(2);
const peakMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** What one aligner run gave: its alignment when accepted, and its path's cost ratio when the warp ran. */
interface Timed {
  alignment?: Alignment;
  costRatio?: number;
}

/** Runs `align`, printing its wall and CPU seconds per second of audio and the process's peak memory after it. */
async function timed(label: string, seconds: number, align: () => Promise<Alignment>): Promise<Timed> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await align().catch((error: unknown) => {
    if (error instanceof TranscriptMismatchError) return error;
    throw error;
  });
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  const score =
    result instanceof TranscriptMismatchError
      ? `refused (${result.meanPosterior?.toFixed(3) ?? 'no path'})`
      : `score ${result.meanPosterior.toFixed(3)}`;
  console.log(
    `${label}: ${f2((performance.now() - started) / 1000)} s wall, ${f2(cpuSeconds)} s CPU (${f2(cpuSeconds / seconds)} s per second of audio), ` +
      `peak memory ${peakMb()} MB, ${score}`,
  );
  const posterior = result.meanPosterior;
  return {
    ...(!(result instanceof TranscriptMismatchError) && { alignment: result }),
    ...(posterior !== undefined && { costRatio: 1 - posterior }),
  };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

async function loopedLibriVox(seconds: number) {
  const { path, transcript } = benchRecording(join(work, 'looped.wav'), seconds);
  const prepared = await prepareRecording(path, work, limits.maxRecordedSpeechSeconds);
  const pcm = readWav(prepared.alignmentWavPath).samples;
  const words = transcriptWords(transcript);
  console.log(`recording: ${f2(prepared.durationSeconds)} s prepared, ${words.length} words; peak memory ${peakMb()} MB`);
  const model = (await timed('SoundSwallower (en-us)', prepared.durationSeconds, () => alignTranscript(pcm, words, 'en'))).alignment;
  const script = speechScriptOf(transcript);
  const { alignment: dtw } = await timed('espeak-ng en-us+m3 + DTW', prepared.durationSeconds, () =>
    alignBySynthesis(pcm, script, words, 'espeak:en-us+m3', work),
  );
  if (!model || !dtw) return;
  const errors = model.words.map((w, i) => Math.abs(w.startSeconds - dtw.words[i]!.startSeconds));
  console.log(
    `DTW word starts against SoundSwallower's: median ${Math.round(quantile(errors, 0.5) * 1000)} ms, 90th percentile ${Math.round(quantile(errors, 0.9) * 1000)} ms`,
  );
}

async function ownRecording(wav: string, text: string, voice: string, wrong: string | undefined, shuffled: boolean) {
  const prepared = await prepareRecording(wav, work, limits.maxRecordedSpeechSeconds);
  const pcm = readWav(prepared.alignmentWavPath).samples;
  const seconds = prepared.durationSeconds;
  const align = (transcript: string) => () => alignBySynthesis(pcm, speechScriptOf(transcript), transcriptWords(transcript), voice, work);
  for (const [label, transcript] of [['own transcript', text], ...(wrong ? [['wrong transcript', wrong]] : [])] as const) {
    const { costRatio } = await timed(`${label} (${voice}, ${f2(seconds)} s)`, seconds, align(transcript));
    if (!shuffled) continue;
    const shuffledCopy = shuffledTranscript(speechScriptOf(transcript));
    const baseline = shuffledCopy ? (await timed(`${label} shuffled`, seconds, align(shuffledCopy))).costRatio : undefined;
    const normalised = costRatio !== undefined && baseline !== undefined ? (costRatio / baseline).toFixed(3) : 'no path';
    console.log(
      `${label}: path ratio ${costRatio?.toFixed(3) ?? 'no path'}, shuffled ${baseline?.toFixed(3) ?? 'no path'}, normalised ${normalised}`,
    );
  }
}

try {
  const wav = argument('wav');
  const read = (name: string) => {
    const path = argument(name);
    return path === undefined ? undefined : readFileSync(path, 'utf8').replace(/\s+/g, ' ').trim();
  };
  if (wav) await ownRecording(wav, read('text') ?? '', argument('voice') ?? 'espeak:en-us+m3', read('wrong'), process.argv.includes('--shuffled'));
  else await loopedLibriVox(Number(argument('seconds') ?? 590));
} finally {
  rmSync(work, { recursive: true, force: true });
}
