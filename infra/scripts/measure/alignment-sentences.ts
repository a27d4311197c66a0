/**
 * `npx tsx infra/scripts/measure/alignment-sentences.ts`: what aligning short sentences costs through espeak-ng's
 * `en-us+m3` and the warp (the path of every non-English language), the five LibriVox sentences of Debian's
 * pocketsphinx-testdata twice in one process (the second round as warm as a render after its warm-up). Prints per
 * sentence the process's CPU (all its threads) and its ffmpeg children's (read from /proc/self/stat), each per
 * second of audio. Preparation (media/recording.ts) is not counted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechScriptOf } from '#domain/lexicon';
import { transcriptWords } from '#functions/render/speech/alignment.ts';
import { alignBySynthesis } from '#functions/render/speech/synthesis-alignment.ts';
import { prepareRecording } from '#media/recording';
import { readWav } from '#media/wav';

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
/** CPU seconds of the children this process has waited for (ffmpeg): /proc/self/stat's cutime and cstime. */
const childrenSeconds = () => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

const sentences = readFileSync(join(LIBRIVOX, 'transcription'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => ({
    id: /\((.+)\)/.exec(line)![1]!,
    text: line
      .replace(/\(.+\)/, '')
      .replace(/<\/?s>/g, '')
      .trim(),
  }));
const work = mkdtempSync(join(tmpdir(), 'vidbot-alignment-sentences-'));
try {
  for (const round of [1, 2])
    for (const { id, text } of sentences) {
      const dir = mkdtempSync(join(work, id));
      const prepared = await prepareRecording(join(LIBRIVOX, `${id}.wav`), dir, 600);
      const pcm = readWav(prepared.alignmentWavPath).samples;
      const script = speechScriptOf(text);
      const cpu = process.cpuUsage();
      const children = childrenSeconds();
      const verdict = await alignBySynthesis(pcm, script, transcriptWords(script.shown), 'espeak:en-us+m3', dir).then(
        () => 'accepted',
        (error: Error) => `refused: ${error.message}`,
      );
      const used = process.cpuUsage(cpu);
      const own = (used.user + used.system) / 1e6;
      const ffmpeg = childrenSeconds() - children;
      const perSecond = (own + ffmpeg) / prepared.durationSeconds;
      console.log(
        `round ${round} ${id} (${prepared.durationSeconds.toFixed(2)} s): process ${own.toFixed(2)} s + ffmpeg ${ffmpeg.toFixed(2)} s CPU, ${perSecond.toFixed(2)} s per second; ${verdict}`,
      );
    }
} finally {
  rmSync(work, { recursive: true, force: true });
}
