/**
 * A caller's recording (a clip's audio_url or audio_upload) made fit to publish: identified with pinned demuxers,
 * bounded in length, its leading and trailing silence trimmed to 0.25 s, and its loudness normalised to -16 LUFS
 * integrated with a true peak of at most -1.5 dBTP (ffmpeg's loudnorm, two passes: measure, then apply, linearly
 * where the peaks leave room). Written as the 48 kHz mono WAV the clip speaks, and a 16 kHz copy the aligner reads.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  DECODE_PAST_LIMIT_SECONDS,
  type DeclaredMedia,
  type DecodeMismatchError,
  declaredOf,
  decodeBounds,
  decodeCheckBudget,
  lengthMismatch,
} from './decode-check.ts';
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
  const decoded = join(workDir, 'recording-decoded.wav');
  const { decodedSeconds, measured, mismatch } = await decodedAndMeasured(path, format, declaredOf(identified.probed), maxSeconds, decoded, deadline);
  if (mismatch) throw new RecordingRejectedError(declared === undefined ? 'audio_too_long' : 'audio_invalid', mismatch.reason);
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

/**
 * The recording decoded once, with its demuxer alone and no further than its header's claim and a tolerance (the
 * limit when it claims none), to the 48 kHz mono WAV at `decoded` that the second pass reads; in the same run,
 * loudnorm's first pass measures the same samples trimmed. `mismatch` when it lasts longer than it claims or than
 * `maxSeconds`; throws RecordingRejectedError when it does not decode. One run for the three: a compressed recording
 * is decoded once, and ffmpeg is started once (each start forks the calling process).
 */
async function decodedAndMeasured(
  path: string,
  format: { demuxer: string; label: string },
  declared: DeclaredMedia,
  maxSeconds: number,
  decoded: string,
  deadline: number | undefined,
): Promise<{ decodedSeconds: number; measured: LoudnessMeasure | undefined; mismatch: DecodeMismatchError | undefined }> {
  const { limit } = decodeBounds(declared, maxSeconds);
  const rate = RECORDING_SAMPLE_RATE;
  // The measuring branch gets the samples the WAV holds (one resampler to 48 kHz mono 16-bit, as the output's).
  const graph = `[0:a:0]asplit=2[decoded][measured];[measured]aresample=${rate}:ocl=mono:osf=s16,${trimmed(rate)},${loudnorm}:print_format=json[report]`;
  let stderr: string;
  try {
    ({ stderr } = await runFfmpeg(
      [
        '-y',
        '-xerror',
        ...pinnedInput(format.demuxer),
        '-t',
        (limit + DECODE_PAST_LIMIT_SECONDS).toFixed(3),
        '-i',
        path,
        '-filter_complex',
        graph,
        ...['-map', '[decoded]', '-ac', '1', '-ar', String(rate), '-c:a', 'pcm_s16le', '-f', 'wav', decoded],
        ...['-map', '[report]', '-f', 'null', '-'],
      ],
      { budgetSeconds: decodeCheckBudget(limit, deadline), logLevel: 'info', stallSeconds: false },
    ));
  } catch (error) {
    if (!(error instanceof MediaToolError) || error.signal) throw error;
    throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound that can be played`);
  }
  const decodedSeconds = (statSync(decoded).size - 44) / (rate * 2);
  // Resampling to 48 kHz may add a few samples to what the file holds.
  const mismatch = lengthMismatch(Math.max(0, decodedSeconds - RESAMPLING_SLACK_SECONDS), declared, maxSeconds);
  return { decodedSeconds, measured: loudnessReport(stderr), mismatch };
}

/** loudnorm's first-pass JSON report in ffmpeg's log, or undefined for silence (no finite loudness). */
function loudnessReport(stderr: string): LoudnessMeasure | undefined {
  const json = /\{[^{}]*"input_i"[^{}]*\}/.exec(stderr)?.[0];
  if (!json) return undefined;
  const report = JSON.parse(json) as LoudnessMeasure;
  // The values go into the second pass's filter: plain finite numbers only.
  const fields = [report.input_i, report.input_tp, report.input_lra, report.input_thresh, report.target_offset];
  return fields.every((v) => typeof v === 'string' && /^-?\d{1,4}(\.\d{1,4})?$/.test(v)) ? report : undefined;
}
