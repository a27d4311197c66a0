/**
 * renderClip: one clip, one ffmpeg process. The clip's picture is a list of layers (./layers/: background,
 * presenter, images, wipes, text, fades) compiled in z-order by one FilterGraph; Node draws the presenter (only
 * its own rectangle, RGBA) frame by frame and pipes it to ffmpeg's stdin; the soundtrack mixes the voice with
 * the background's audio; ffmpeg encodes H.264 + AAC and the poster in the same pass.
 */
import { join } from 'node:path';
import { cuesFromWords } from '#domain/captions';
import { posterSecondsOf } from '#domain/clip';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { spokenWords } from '#domain/spoken-words';
import { AUDIO_ENCODE_ARGS, POSTER_ENCODE_ARGS, VIDEO_CONTENT_TYPE, VIDEO_ENCODE_ARGS, VOICE_CONTENT_TYPE, VOICE_ENCODE_ARGS } from '#media/formats';
import { budgetFor, runFfmpeg } from '#media/media';
import { probe } from '#media/probe';
import { FilterGraph, filterNumber } from './filter-graph.ts';
import { drawLayers } from './layers/index.ts';
import { sceneOf } from './scene.ts';
import { soundtrack } from './soundtrack.ts';
import {
  FPS,
  type RenderClipInput,
  type RenderClipOutput,
  type RenderTimings,
  type SpeechResult,
  SpeechTooLongError,
  SpokenTextTooLongError,
  type VoiceClipInput,
} from './types.ts';

async function renderVoice(speech: SpeechResult, shown: string, input: VoiceClipInput, speechMs: number): Promise<RenderClipOutput> {
  const started = performance.now();
  const path = join(input.workDir, 'voice.mp3');
  await runFfmpeg(['-y', '-protocol_whitelist', 'file', '-f', 'wav', '-i', speech.wavPath, ...VOICE_ENCODE_ARGS, path], {
    budgetSeconds: budgetOf(input, speech.durationSeconds),
  });
  const duration = (await probe(path, 'mp3')).format.duration;
  const timings: RenderTimings = { speechMs, setupMs: 0, firstFrameMs: 0, drawMs: 0, encodeMs: Math.round(performance.now() - started) };
  const cues = cuesFromWords(shown, speech.words);
  return {
    words: spokenWords(shown, speech.words),
    path,
    contentType: VOICE_CONTENT_TYPE,
    durationSeconds: duration !== undefined && Number.isFinite(duration) ? duration : speech.durationSeconds,
    cues,
    timings,
  };
}

/** The encode's budget: its share of media.ts budgetFor, never past the input's deadline. */
function budgetOf(input: RenderClipInput, mediaSeconds: number): number {
  // Whole seconds: the budget is named in the caller's error message.
  const budget = Math.round(budgetFor(mediaSeconds) * (input.budgetScale ?? 1));
  return input.deadline === undefined ? budget : Math.max(0, Math.min(budget, Math.floor((input.deadline - Date.now()) / 1000)));
}

/** The outputs: the clip (H.264 + AAC, `seconds` long) from the graph's `video` and `audio`, and the poster from its `poster`. */
const outputArgs = (
  graph: FilterGraph,
  streams: { video: string; audio: string; poster: string },
  seconds: number,
  output: string,
  posterPath: string,
) => [
  '-filter_complex',
  graph.script(),
  '-map',
  `[${streams.video}]`,
  '-map',
  `[${streams.audio}]`,
  ...VIDEO_ENCODE_ARGS,
  '-r',
  `${FPS}`,
  ...AUDIO_ENCODE_ARGS,
  '-t',
  filterNumber(seconds),
  '-movflags',
  '+faststart',
  output,
  '-map',
  `[${streams.poster}]`,
  ...POSTER_ENCODE_ARGS,
  posterPath,
];

export async function renderClip(input: RenderClipInput): Promise<RenderClipOutput> {
  // Where the time goes (RenderClipOutput.timings; the render job logs them).
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  const script = speechScriptOf(input.text, input.pronunciations);
  const spokenChars = script.parts.reduce((n, part) => n + (part.kind === 'speech' ? part.text.length : 0), 0);
  const maxSpokenChars = input.speech.maxSpokenChars ?? limits.maxSpokenChars;
  if (spokenChars > maxSpokenChars) throw new SpokenTextTooLongError(spokenChars, maxSpokenChars);
  const speech = await input.speech.synthesize(script, input.voice, input.workDir);
  const speechMs = ms();
  const maxSpeechSeconds = input.speech.maxSeconds ?? limits.maxSpeechSeconds;
  if (speech.durationSeconds > maxSpeechSeconds) throw new SpeechTooLongError(speech.durationSeconds, maxSpeechSeconds);
  if (input.mode === 'voice') return renderVoice(speech, script.shown, input, speechMs);

  const scene = await sceneOf(input, script, speech);
  const { timing, presenter } = scene;
  const D = timing.totalSeconds;
  // Inputs in the order the graph adds them: the layers' (background, presenter, images), then the speech.
  // Every input is pinned to its demuxer.
  const graph = new FilterGraph();
  const picture = drawLayers(graph, scene);
  const audio = soundtrack(graph, scene, speech.wavPath);
  // The poster: one frame of the finished picture, split off before the encoder (no second decode later).
  const posterFrame = Math.max(0, Math.min(timing.frames - 1, Math.round(posterSecondsOf(input.transitions, D) * FPS)));
  const [video, posterCopy] = graph.split(picture, 2) as [string, string];
  const poster = graph.chain(posterCopy, `trim=start_frame=${posterFrame}:end_frame=${posterFrame + 1}`, 'poster');
  const output = join(input.workDir, 'clip.mp4');
  const posterPath = join(input.workDir, 'poster.jpg');
  const args = ['-y', ...graph.inputArgs(), ...outputArgs(graph, { video, audio, poster }, D, output, posterPath)];

  const setupMs = ms();
  let drawMs = 0;
  let firstFrameMs = 0;
  try {
    await runFfmpeg(args, {
      budgetSeconds: budgetOf(input, D),
      frames: {
        count: timing.frames,
        frame: (i) => {
          const s = performance.now();
          const frame = presenter.frame(i);
          drawMs += performance.now() - s;
          if (i === 0) firstFrameMs = ms();
          return frame;
        },
      },
      onProgress: input.onProgress,
    });
  } finally {
    presenter.close?.();
  }
  const timings: RenderTimings = { speechMs, setupMs: setupMs - speechMs, firstFrameMs, drawMs: Math.round(drawMs), encodeMs: ms() - setupMs };
  return {
    path: output,
    contentType: VIDEO_CONTENT_TYPE,
    durationSeconds: Number(D.toFixed(3)),
    cues: scene.cues,
    words: scene.words,
    captionsBurned: scene.burnCaptions,
    posterPath,
    timings,
  };
}
