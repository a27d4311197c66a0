/**
 * `npx tsx infra/scripts/measure/recording-loudness.ts`: how loud a prepared recording is published
 * (functions/media/recording.ts prepareRecording), measured on the published WAV by ffmpeg's `ebur128` filter
 * (integrated loudness, true peak at 4 times oversampling): the five LibriVox sentences of Debian's
 * pocketsphinx-testdata and the bench's recording (bench/service.ts benchRecording, 60 s of them looped), the latter
 * also as MP3 and AAC in M4A, then any recording named after `--` (the non-English readers of docs/your-voice.md).
 * The target: -16 LUFS integrated, a true peak of at most -1.5 dBTP.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runFfmpeg } from '#functions/media/media.ts';
import { loudnessOf } from '#media/loudness';
import { prepareRecording } from '#media/recording';
import { benchRecording } from '../bench/service.ts';

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const work = mkdtempSync(join(tmpdir(), 'vidbot-recording-loudness-'));

/** The meter's reading of a file, as text. */
async function loudness(path: string): Promise<string> {
  const reading = await loudnessOf(path);
  return reading ? `${reading.integrated} LUFS, true peak ${reading.truePeak} dBTP` : 'no loudness';
}

try {
  const bench = benchRecording(join(work, 'bench.wav'), 60).path;
  const compressed = [
    { name: 'bench.mp3', codec: ['-c:a', 'libmp3lame', '-b:a', '96k'] },
    { name: 'bench.m4a', codec: ['-c:a', 'aac', '-b:a', '96k'] },
  ];
  for (const { name, codec } of compressed) await runFfmpeg(['-i', bench, ...codec, join(work, name)], { budgetSeconds: 60 });
  const recordings = [
    ...readdirSync(LIBRIVOX)
      .filter((f) => f.endsWith('.wav'))
      .map((f) => join(LIBRIVOX, f)),
    bench,
    ...compressed.map((c) => join(work, c.name)),
    ...process.argv.slice(2).filter((a) => a !== '--'),
  ];
  for (const path of recordings) {
    const prepared = await prepareRecording(path, mkdtempSync(join(work, 'prepared-')), 600);
    console.log(
      `${basename(path)}: ${prepared.durationSeconds.toFixed(1)} s, before ${await loudness(path)}; published ${await loudness(prepared.wavPath)}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
