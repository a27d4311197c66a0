/**
 * A caller's recording (a clip's audio_url or audio_upload) made fit to publish: identified with pinned demuxers,
 * bounded in length, its leading and trailing silence trimmed to 0.25 s, and its loudness normalised to -16 LUFS
 * integrated with a true peak of at most -1.5 dBTP (ffmpeg's loudnorm, two passes: measure, then apply linearly).
 * Written as the 48 kHz mono WAV the clip speaks, and a 16 kHz copy the aligner reads.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { checkDecodeAgainstHeader, DecodeMismatchError, declaredOf } from './decode-check.ts';
import { budgetUntil, MediaRejectedError, MediaToolError, pinnedInput, runFfmpeg } from './media.ts';
import { identifyInput } from './probe.ts';

/** The formats a recording may be in (docs/your-voice.md); anything ffmpeg identifies as another is refused. */
const RECORDING_FORMATS: readonly { demuxer: string; label: string }[] = [
  { demuxer: 'wav', label: 'WAV' },
  { demuxer: 'mp3', label: 'MP3' },
  { demuxer: 'mov', label: 'M4A / MP4' },
  { demuxer: 'aac', label: 'AAC' },
  { demuxer: 'ogg', label: 'Ogg (Vorbis, Opus)' },
  { demuxer: 'matroska', label: 'WebM' },
  { demuxer: 'flac', label: 'FLAC' },
];
const FORMAT_WHITELIST = RECORDING_FORMATS.map((f) => f.demuxer).join(',');
const ACCEPTED_FORMATS_TEXT = RECORDING_FORMATS.map((f) => f.label).join(', ');

/** The published recording's sample rate; the aligner's copy is at ALIGNMENT_SAMPLE_RATE. */
export const RECORDING_SAMPLE_RATE = 48_000;
const ALIGNMENT_SAMPLE_RATE = 16_000;
/** Silence kept before the first sound and after the last. */
export const EDGE_SILENCE_SECONDS = 0.25;
/** What counts as silence at the edges: below this level for a twentieth of a second. */
const SILENCE_THRESHOLD_DB = -45;
/** What resampling to 48 kHz may add to a recording's length (a few samples): not more than it lasts. */
const RESAMPLING_SLACK_SECONDS = 0.01;
const LOUDNESS = { integrated: -16, truePeak: -1.5, range: 11 } as const;

/** Why a recording is refused, in the words of its error code (domain: audio_invalid, audio_too_long). */
export class RecordingRejectedError extends MediaRejectedError {
  constructor(
    readonly code: 'audio_invalid' | 'audio_too_long',
    message: string,
  ) {
    super(message);
  }
}

export interface PreparedRecording {
  /** 48 kHz mono 16-bit WAV, trimmed and normalised: what the clip speaks. */
  wavPath: string;
  /** The same at 16 kHz, for the aligner. */
  alignmentWavPath: string;
  durationSeconds: number;
}

/** Trims silence at both ends (reversing to trim the end) and pads EDGE_SILENCE_SECONDS back at each. */
const trimmed = (rate: number) =>
  [
    `silenceremove=start_periods=1:start_duration=0.05:start_threshold=${SILENCE_THRESHOLD_DB}dB`,
    'areverse',
    `silenceremove=start_periods=1:start_duration=0.05:start_threshold=${SILENCE_THRESHOLD_DB}dB`,
    'areverse',
    `adelay=${EDGE_SILENCE_SECONDS * 1000}`,
    `apad=pad_len=${Math.round(EDGE_SILENCE_SECONDS * rate)}`,
  ].join(',');

const loudnorm = `loudnorm=I=${LOUDNESS.integrated}:TP=${LOUDNESS.truePeak}:LRA=${LOUDNESS.range}`;

/**
 * Prepares the recording at `path` into `workDir`, or throws RecordingRejectedError: not an accepted format, no
 * sound, longer than `maxSeconds`, or silent throughout. `deadline` (ms since the epoch): no ffmpeg run's budget
 * passes it, so a slow file is stopped by our watchdog before the function's own time runs out.
 */
export async function prepareRecording(path: string, workDir: string, maxSeconds: number, deadline?: number): Promise<PreparedRecording> {
  const budget = (mediaSeconds: number) => budgetUntil(mediaSeconds, deadline);
  const identified = await identifyInput(path, FORMAT_WHITELIST);
  const format = RECORDING_FORMATS.find((f) => f.demuxer === identified?.demuxer);
  if (!identified || !format)
    throw new RecordingRejectedError('audio_invalid', `is not a recording in an accepted format (${ACCEPTED_FORMATS_TEXT})`);
  if (!identified.probed.streams.some((s) => s.codec_type === 'audio'))
    throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound`);
  const declared = identified.probed.format.duration;
  if (declared !== undefined && declared > maxSeconds)
    throw new RecordingRejectedError('audio_too_long', `lasts ${Math.round(declared)} s; a clip's recording may last at most ${maxSeconds} s`);
  await checkDecodeAgainstHeader(path, format.demuxer, declaredOf(identified.probed), { stream: 'a', maxSeconds, deadline }).catch(
    (error: unknown) => {
      if (error instanceof DecodeMismatchError)
        throw new RecordingRejectedError(declared === undefined ? 'audio_too_long' : 'audio_invalid', error.reason);
      if (error instanceof MediaRejectedError) throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound that can be played`);
      throw error;
    },
  );

  // Decoded once, bounded to one second past the limit (a declared duration may lie), to a plain WAV both passes read.
  const decoded = join(workDir, 'recording-decoded.wav');
  const input = [...pinnedInput(format.demuxer), '-i', path, '-map', '0:a:0', '-vn', '-sn', '-dn', '-t', String(maxSeconds + 1)];
  try {
    await runFfmpeg(['-y', ...input, '-ac', '1', '-ar', String(RECORDING_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 'wav', decoded], {
      budgetSeconds: budget(maxSeconds / 4),
    });
  } catch (error) {
    if (error instanceof MediaToolError) throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound that can be played`);
    throw error;
  }
  const decodedSeconds = (statSync(decoded).size - 44) / (RECORDING_SAMPLE_RATE * 2);
  if (decodedSeconds > maxSeconds + RESAMPLING_SLACK_SECONDS)
    throw new RecordingRejectedError('audio_too_long', `lasts more than ${maxSeconds} s; a clip's recording may last at most ${maxSeconds} s`);

  const measured = await measureLoudness(decoded, budget(decodedSeconds / 4));
  if (!measured) throw new RecordingRejectedError('audio_invalid', 'is silent');
  const wavPath = join(workDir, 'recording.wav');
  const alignmentWavPath = join(workDir, 'recording-16k.wav');
  const second = `${loudnorm}:measured_I=${measured.input_i}:measured_TP=${measured.input_tp}:measured_LRA=${measured.input_lra}:measured_thresh=${measured.input_thresh}:offset=${measured.target_offset}:linear=true`;
  await runFfmpeg(
    [
      '-y',
      '-protocol_whitelist',
      'file',
      '-f',
      'wav',
      '-i',
      decoded,
      '-filter_complex',
      `[0:a]${trimmed(RECORDING_SAMPLE_RATE)},${second},aresample=${RECORDING_SAMPLE_RATE},asplit=2[pub][al];[al]aresample=${ALIGNMENT_SAMPLE_RATE}[al16]`,
      '-map',
      '[pub]',
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      wavPath,
      '-map',
      '[al16]',
      '-ac',
      '1',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
      alignmentWavPath,
    ],
    { budgetSeconds: budget(decodedSeconds / 2) },
  );
  const durationSeconds = (statSync(wavPath).size - 44) / (RECORDING_SAMPLE_RATE * 2);
  if (durationSeconds < 2 * EDGE_SILENCE_SECONDS + 0.05) throw new RecordingRejectedError('audio_invalid', 'is silent');
  return { wavPath, alignmentWavPath, durationSeconds };
}

interface LoudnessMeasure {
  input_i: string;
  input_tp: string;
  input_lra: string;
  input_thresh: string;
  target_offset: string;
}

/** loudnorm's first pass over the trimmed sound: its JSON report, or undefined for silence (no finite loudness). */
async function measureLoudness(decoded: string, budgetSeconds: number): Promise<LoudnessMeasure | undefined> {
  const { stderr } = await runFfmpeg(
    [
      '-protocol_whitelist',
      'file',
      '-f',
      'wav',
      '-i',
      decoded,
      '-af',
      `${trimmed(RECORDING_SAMPLE_RATE)},${loudnorm}:print_format=json`,
      '-f',
      'null',
      '-',
    ],
    { budgetSeconds, logLevel: 'info', stallSeconds: false },
  );
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)?.[0];
  if (!json) return undefined;
  const report = JSON.parse(json) as LoudnessMeasure;
  // The values go into the second pass's filter: plain finite numbers only.
  const fields = [report.input_i, report.input_tp, report.input_lra, report.input_thresh, report.target_offset];
  return fields.every((v) => typeof v === 'string' && /^-?\d{1,4}(\.\d{1,4})?$/.test(v)) ? report : undefined;
}
