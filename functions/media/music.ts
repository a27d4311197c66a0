/**
 * A video's music: a caller's file identified and decoded (bounded as backgrounds are, see media.ts), and the one
 * mix that lays it under the joined video's sound: looped to length, faded in and out, ducked under the speech.
 * The picture is copied; only the sound is encoded again.
 */
import { statSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { checkDecodeAgainstHeader, DecodeMismatchError, declaredOf } from './decode-check.ts';
import { AUDIO_ENCODE_ARGS, VOICE_ENCODE_ARGS } from './formats.ts';
import { budgetUntil, MediaRejectedError, MediaToolError, PLAIN_WAV_OUTPUT, pinnedInput, runFfmpeg } from './media.ts';
import { identifyInput } from './probe.ts';
import { sealedStreamedWav, wavSeconds } from './wav.ts';

/**
 * The formats a music file may be in (docs/security.md): audio files, and video files whose sound is used.
 * Anything ffmpeg identifies as another is refused.
 */
const MUSIC_FORMATS: readonly { demuxer: string; label: string }[] = [
  { demuxer: 'mp3', label: 'MP3' },
  { demuxer: 'aac', label: 'AAC' },
  { demuxer: 'mov', label: 'M4A / MP4 / MOV' },
  { demuxer: 'wav', label: 'WAV' },
  { demuxer: 'ogg', label: 'Ogg (Vorbis, Opus)' },
  { demuxer: 'matroska', label: 'WebM / Matroska' },
];
const FORMAT_WHITELIST = MUSIC_FORMATS.map((f) => f.demuxer).join(',');
const ACCEPTED_FORMATS_TEXT = MUSIC_FORMATS.map((f) => f.label).join(', ');

/** The sample rate and layout every music bed is decoded to (a preset is written so too). */
export const MUSIC_SAMPLE_RATE = 48_000;

/**
 * Decides whether a downloaded music file may be played and decodes its sound, at most `seconds` of it, to a
 * 48 kHz stereo WAV in `workDir` (a WAV loops without a gap or a click, whatever the source's encoder delay).
 * Rejects (MediaRejectedError) anything not in MUSIC_FORMATS, without a sound, or that does not decode. The decode
 * ends by `deadline` (ms since the epoch), if given.
 */
export async function decodeMusic(file: string, workDir: string, seconds: number, deadline?: number): Promise<string> {
  // A WAV written to a pipe is read from a copy given the sizes it holds, so its last short block decodes.
  const path = sealedStreamedWav(file, join(workDir, 'music-sealed.wav'));
  const identified = await identifyInput(path, FORMAT_WHITELIST);
  const probed = identified?.probed;
  const demuxer = identified?.demuxer;
  const format = MUSIC_FORMATS.find((f) => f.demuxer === demuxer);
  if (!probed || !format) throw new MediaRejectedError(`is not an audio or video file in an accepted format (${ACCEPTED_FORMATS_TEXT})`);
  // As long as it says, over what the video plays of it (it loops, or is cut to the video).
  const noSound = new MediaRejectedError(`(${format.label}) has no sound that can be played`);
  await checkDecodeAgainstHeader(path, format.demuxer, declaredOf(probed), { stream: 'a', maxSeconds: Infinity, checkSeconds: seconds }).catch(
    (error: unknown) => {
      throw error instanceof MediaRejectedError && !(error instanceof DecodeMismatchError) ? noSound : error;
    },
  );

  const wav = join(workDir, 'music.wav');
  try {
    // Only its first sound is mapped: a picture it may have is never decoded. A file with no sound fails here,
    // whatever its report's (forgeable) stream lines say.
    await runFfmpeg(
      [
        '-y',
        ...pinnedInput(format.demuxer),
        '-i',
        path,
        '-map',
        '0:a:0',
        '-vn',
        '-sn',
        '-dn',
        '-t',
        seconds.toFixed(3),
        '-ac',
        '2',
        '-ar',
        String(MUSIC_SAMPLE_RATE),
        '-c:a',
        'pcm_s16le',
        ...PLAIN_WAV_OUTPUT,
        wav,
      ],
      { budgetSeconds: budgetUntil(seconds / 4, deadline) },
    );
  } catch (error) {
    if (error instanceof MediaToolError) throw new MediaRejectedError(`(${format.label}) has no sound that can be played`);
    throw error;
  }
  if (path !== file) await rm(path, { force: true }); // the sealed copy, read
  // A tenth of a second of sound at the least.
  if (wavSeconds(wav) < 0.1) throw new MediaRejectedError(`(${format.label}) has no sound that can be played`);
  return wav;
}

/** How the music gives way to the speech (docs/scenes.md, Music). */
const DUCKING = {
  /** Under speech the music is this much quieter than in the pauses. */
  depthDb: 18,
  /** Each ramp down (before a word) and up (after one) takes this long. */
  rampSeconds: 0.2,
  /** Speech spans closer than this are one: the music does not swell between two words. */
  mergeGapSeconds: 0.4,
  /** The fade in at the start and out at the end. */
  fadeSeconds: 2,
} as const;

export interface MixMusicInput {
  /** The joined video (our MP4) or voice (our MP3). */
  input: string;
  mode: 'video' | 'voice';
  /** The music bed: a 48 kHz stereo WAV (decodeMusic, or a preset), looped to length. */
  music: string;
  /** Its gain in the pauses, 0-1. */
  volume: number;
  /** Where the voices speak, in seconds of the joined video, in order. */
  speech: { startSeconds: number; endSeconds: number }[];
  durationSeconds: number;
  /** When the mix must have ended (ms since the epoch): the function's own time limit, less a margin. */
  deadline?: number;
  workDir: string;
}

/**
 * Speech spans with the small gaps between them closed (DUCKING.mergeGapSeconds).
 * @internal Exported for its tests.
 */
export function mergeSpeech(spans: MixMusicInput['speech']): MixMusicInput['speech'] {
  const merged: MixMusicInput['speech'] = [];
  for (const span of [...spans].sort((a, b) => a.startSeconds - b.startSeconds)) {
    const last = merged[merged.length - 1];
    if (last && span.startSeconds - last.endSeconds < DUCKING.mergeGapSeconds) last.endSeconds = Math.max(last.endSeconds, span.endSeconds);
    else if (span.endSeconds > span.startSeconds) merged.push({ ...span });
  }
  return merged;
}

const n = (x: number) => x.toFixed(3);

/**
 * The music's gain as an expression of the time `t`: `volume` in the pauses, DUCKING.depthDb lower while a voice
 * speaks, with a ramp of DUCKING.rampSeconds (linear in dB) down before each span and up after it. Merged spans are at
 * least two ramps apart, so their trapezoids never overlap and their sum is the speech's presence, 0 to 1.
 */
function duckingExpression(volume: number, speech: MixMusicInput['speech']): string {
  const r = DUCKING.rampSeconds;
  const terms = mergeSpeech(speech).map(({ startSeconds: a, endSeconds: b }) => `clip((t-${n(a - r)})/${r},0,1)*clip((${n(b + r)}-t)/${r},0,1)`);
  // The ramp is linear in decibels (as a listener hears it), not in amplitude.
  const depth = (DUCKING.depthDb / 20).toFixed(4);
  return terms.length ? `${volume.toFixed(4)}*pow(10,-${depth}*(${terms.join('+')}))` : volume.toFixed(4);
}

/**
 * Lays the music under a joined video (or voice): the bed looped to the video's length, faded in and out, its
 * gain following duckingExpression, summed with the video's own sound. The picture is copied; the sound is
 * encoded as every clip's is. Returns the mixed file's path and size.
 */
export async function mixMusic(input: MixMusicInput): Promise<{ path: string; sizeBytes: number }> {
  const voice = input.mode === 'voice';
  const duration = input.durationSeconds;
  const fade = Math.min(DUCKING.fadeSeconds, duration / 3);
  const layout = voice ? 'mono' : 'stereo';
  const rate = voice ? 44_100 : 48_000;
  // The bed is padded with silence past its fade out, so the mix always ends with the video's own sound (amix
  // would otherwise re-scale the voice when the music stopped first); amix halves both inputs, volume=2 undoes it.
  const graph = [
    `[1:a]atrim=0:${n(duration)},asetpts=N/SR/TB,aresample=${rate},aformat=sample_fmts=fltp:channel_layouts=${layout},`,
    `afade=t=in:st=0:d=${n(fade)},afade=t=out:st=${n(Math.max(0, duration - fade))}:d=${n(fade)},asetnsamples=n=512,`,
    `volume='${duckingExpression(input.volume, input.speech)}':eval=frame,apad[music];`,
    `[0:a]aresample=${rate},aformat=sample_fmts=fltp:channel_layouts=${layout}[own];`,
    '[own][music]amix=inputs=2:duration=first:dropout_transition=0,volume=2[mixed]',
  ].join('');
  // The graph holds a term per speech span: written to a file rather than the command line.
  const script = join(input.workDir, 'music-mix.txt');
  writeFileSync(script, graph);
  const path = join(input.workDir, voice ? 'video-music.mp3' : 'video-music.mp4');
  const demuxer = voice ? 'mp3' : 'mov';
  await runFfmpeg(
    [
      '-y',
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      demuxer,
      '-f',
      demuxer,
      '-i',
      input.input,
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'wav',
      '-f',
      'wav',
      '-stream_loop',
      '-1',
      '-i',
      input.music,
      '-filter_complex_script',
      script,
      ...(voice ? [] : ['-map', '0:v:0', '-c:v', 'copy']),
      '-map',
      '[mixed]',
      ...(voice ? VOICE_ENCODE_ARGS : AUDIO_ENCODE_ARGS),
      ...(voice ? ['-f', 'mp3'] : ['-movflags', '+faststart', '-f', 'mp4']),
      path,
    ],
    { budgetSeconds: budgetUntil(duration / 4, input.deadline) },
  );
  return { path, sizeBytes: statSync(path).size };
}
