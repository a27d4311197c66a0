/**
 * A caller's recording (a clip's audio_url or audio_upload) made fit to publish: identified with pinned demuxers,
 * bounded in length, its leading and trailing silence trimmed to 0.25 s, and its loudness normalised to -16 LUFS
 * integrated with a true peak of at most -1.5 dBTP (./loudness.ts). Written as the 48 kHz mono WAV the clip speaks,
 * and a 16 kHz copy the aligner reads.
 */
import { rm } from 'node:fs/promises';
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
import {
  LOUDNESS_METER,
  type Loudness,
  type LoudnessSetting,
  limiterLatency,
  loudnessFilters,
  loudnessReport,
  normaliseLoudness,
} from './loudness.ts';
import { budgetUntil, MediaRejectedError, MediaToolError, PLAIN_WAV_OUTPUT, pinnedInput, runFfmpeg } from './media.ts';
import { identifyInput } from './probe.ts';
import { sealedStreamedWav, wavSeconds } from './wav.ts';

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

/**
 * Below 20 Hz (no voice has anything there) a recording's sound goes, after its DC offset (`offset`, measured over
 * the whole recording) is taken off: an offset carries no loudness but would take the limiter's room, and keeps the
 * edges from reading as silence; taken off first, it leaves the filter no step to ring on at the start. Then silence
 * is trimmed at both ends (reversing to trim the end).
 */
const trimmed = (rate: number, offset = 0) =>
  [
    `dcshift=shift=${(-offset).toFixed(6)}`,
    'highpass=f=20',
    `silenceremove=start_periods=1:start_duration=0.05:start_threshold=${SILENCE_THRESHOLD_DB}dB`,
    'areverse',
    `silenceremove=start_periods=1:start_duration=0.05:start_threshold=${SILENCE_THRESHOLD_DB}dB`,
    'areverse',
  ].join(',');

/**
 * `filters`, which delay their input by `latency` samples (the limiter's look-ahead), on the trimmed sound with the
 * delay taken back: the sound is lengthened by the delay first and the delay cut from the front after, so their
 * output is the sound's own length at its own time (a resampler's ringing before the sound's first sample falls in
 * the cut).
 */
const delayTakenBack = (latency: number, filters: string) =>
  [`apad=pad_len=${latency}`, filters, `atrim=start_sample=${latency}`, 'asetpts=PTS-STARTPTS'].join(',');

/** EDGE_SILENCE_SECONDS of silence at each end, to the sample, after every other filter: exact zeros. */
const edges = (rate: number) =>
  [`adelay=${Math.round(EDGE_SILENCE_SECONDS * rate)}S`, `apad=pad_len=${Math.round(EDGE_SILENCE_SECONDS * rate)}`].join(',');

/**
 * Prepares the recording at `path` into `workDir`, or throws RecordingRejectedError: not an accepted format, no
 * sound, longer than `maxSeconds`, or silent throughout. `deadline` (ms since the epoch): no ffmpeg run's budget
 * passes it, so a slow file is stopped by our watchdog before the function's own time runs out.
 */
export async function prepareRecording(path: string, workDir: string, maxSeconds: number, deadline?: number): Promise<PreparedRecording> {
  const budget = (mediaSeconds: number) => budgetUntil(mediaSeconds, deadline);
  // A WAV recorded to a pipe (arecord, ffmpeg to stdout) is read from a copy given the sizes it holds, so its last,
  // short block decodes.
  const input = sealedStreamedWav(path, join(workDir, 'recording-sealed.wav'));
  const identified = await identifyInput(input, FORMAT_WHITELIST);
  const format = RECORDING_FORMATS.find((f) => f.demuxer === identified?.demuxer);
  if (!identified || !format)
    throw new RecordingRejectedError('audio_invalid', `is not a recording in an accepted format (${ACCEPTED_FORMATS_TEXT})`);
  if (!identified.probed.streams.some((s) => s.codec_type === 'audio'))
    throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound`);
  const declared = identified.probed.format.duration;
  if (declared !== undefined && declared > maxSeconds)
    throw new RecordingRejectedError('audio_too_long', `lasts ${Math.round(declared)} s; a clip's recording may last at most ${maxSeconds} s`);
  const decoded = join(workDir, 'recording-decoded.wav');
  const { decodedSeconds, measured, mismatch } = await decodedAndMeasured(
    input,
    format,
    declaredOf(identified.probed),
    maxSeconds,
    decoded,
    deadline,
  );
  // The sealed copy is read once: its disk goes back before the outputs are written.
  if (input !== path) await rm(input, { force: true });
  if (mismatch) throw new RecordingRejectedError(declared === undefined ? 'audio_too_long' : 'audio_invalid', mismatch.reason);
  // The loudness meter reads blocks of 0.4 s: a shorter recording has no reading, silent or not.
  if (!measured)
    throw new RecordingRejectedError(
      'audio_invalid',
      decodedSeconds < 0.4 ? `lasts ${decodedSeconds.toFixed(2)} s: too short to speak` : 'is silent',
    );
  const wavPath = join(workDir, 'recording.wav');
  const alignmentWavPath = join(workDir, 'recording-16k.wav');
  const into = { decoded, offset: measured.offset, wavPath, alignmentWavPath };
  await normaliseLoudness(measured, (setting) => normalised(into, setting, budget(decodedSeconds / 2)));
  const durationSeconds = wavSeconds(wavPath);
  if (durationSeconds < 2 * EDGE_SILENCE_SECONDS + 0.05) throw new RecordingRejectedError('audio_invalid', 'holds less than 0.05 s of sound');
  return { wavPath, alignmentWavPath, durationSeconds };
}

/**
 * The trimmed recording at `decoded` through `setting`'s gain and limiter (./loudness.ts), written as the published
 * WAV and the aligner's 16 kHz copy; returns the meter's reading of the published sound (in the same run, on the
 * samples written), undefined when it has none.
 */
async function normalised(
  { decoded, offset, wavPath, alignmentWavPath }: { decoded: string; offset: number; wavPath: string; alignmentWavPath: string },
  setting: LoudnessSetting,
  budgetSeconds: number,
): Promise<Loudness | undefined> {
  const rate = RECORDING_SAMPLE_RATE;
  const graph = [
    `[0:a]${trimmed(rate, offset)},${delayTakenBack(limiterLatency(rate), loudnessFilters(setting, rate))},${edges(rate)},aformat=sample_fmts=s16,asplit=3[pub][al][check]`,
    `[al]aresample=${ALIGNMENT_SAMPLE_RATE}[al16]`,
    `[check]${LOUDNESS_METER}[report]`,
  ].join(';');
  const wav = (label: string, path: string) => ['-map', label, '-ac', '1', '-c:a', 'pcm_s16le', ...PLAIN_WAV_OUTPUT, path];
  const { stderr } = await runFfmpeg(
    [
      '-y',
      '-protocol_whitelist',
      'file',
      '-f',
      'wav',
      '-i',
      decoded,
      '-filter_complex',
      graph,
      ...wav('[pub]', wavPath),
      ...wav('[al16]', alignmentWavPath),
      ...['-map', '[report]', '-f', 'null', '-'],
    ],
    { budgetSeconds, logLevel: 'info' },
  );
  return loudnessReport(stderr);
}

/**
 * The recording decoded once, with its demuxer alone and no further than its header's claim and a tolerance (the
 * limit when it claims none), to the 48 kHz mono WAV at `decoded` that normalising reads; in the same run,
 * ffmpeg's EBU R128 meter measures the same samples trimmed. `mismatch` when it lasts longer than it claims or than
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
): Promise<{ decodedSeconds: number; measured: (Loudness & { offset: number }) | undefined; mismatch: DecodeMismatchError | undefined }> {
  const { limit } = decodeBounds(declared, maxSeconds);
  const rate = RECORDING_SAMPLE_RATE;
  // The measuring branch gets the samples the WAV holds (one resampler to 48 kHz mono 16-bit, as the output's).
  // The offset is not known until the end: the meter hears the sound through the 20-Hz filter alone.
  const graph = `[0:a:0]asplit=2[decoded][measured];[measured]aresample=${rate}:ocl=mono:osf=s16,astats,${trimmed(rate)},${edges(rate)},${LOUDNESS_METER}[report]`;
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
        ...['-map', '[decoded]', '-ac', '1', '-ar', String(rate), '-c:a', 'pcm_s16le', ...PLAIN_WAV_OUTPUT, decoded],
        ...['-map', '[report]', '-f', 'null', '-'],
      ],
      { budgetSeconds: decodeCheckBudget(limit, deadline), logLevel: 'info', stallSeconds: false },
    ));
  } catch (error) {
    if (!(error instanceof MediaToolError) || error.signal) throw error;
    throw new RecordingRejectedError('audio_invalid', `(${format.label}) has no sound that can be played`);
  }
  const decodedSeconds = wavSeconds(decoded);
  // Resampling to 48 kHz may add a few samples to what the file holds.
  const mismatch = lengthMismatch(Math.max(0, decodedSeconds - RESAMPLING_SLACK_SECONDS), declared, maxSeconds);
  const loudness = loudnessReport(stderr);
  return { decodedSeconds, measured: loudness && { ...loudness, offset: dcOffsetOf(stderr) }, mismatch };
}

/** The recording's DC offset (full scale 1) in ffmpeg's `astats` report, its last ("Overall"); 0 where none reads. */
function dcOffsetOf(stderr: string): number {
  const overall = stderr.slice(stderr.lastIndexOf('Overall'));
  const offset = Number(/DC offset:\s+(-?\d+(?:\.\d+)?)/.exec(overall)?.[1]);
  return Number.isFinite(offset) && Math.abs(offset) < 1 ? offset : 0;
}
