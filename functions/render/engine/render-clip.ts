/**
 * renderClip: one clip, one ffmpeg process. Node draws the bot (only its own rectangle, RGBA) frame by
 * frame and pipes it to ffmpeg's stdin; ffmpeg loops/trims and scales the background, overlays the bot,
 * applies the transitions, mixes the voice with the background's audio and encodes H.264 + AAC.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Cue, cuesFromWords, isBurnable } from '#domain/captions';
import { posterSecondsOf, TRANSITION_SECONDS, type Transitions } from '#domain/clip';
import { speechScriptOf } from '#domain/lexicon';
import { limits } from '#domain/limits';
import { DEFAULT_THEME, type TextOverlay } from '#domain/overlays';
import type { FrameSize } from '#domain/shape';
import { AUDIO_ENCODE_ARGS, POSTER_ENCODE_ARGS, VIDEO_CONTENT_TYPE, VIDEO_ENCODE_ARGS, VOICE_CONTENT_TYPE, VOICE_ENCODE_ARGS } from '#media/formats';
import { budgetFor, runFfmpeg } from '#media/media';
import { probe } from '#media/probe';
import { hashString, poses } from './animation.ts';
import { backgroundInput } from './background-input.ts';
import { CAPTION_CHAR_WIDTH, captionBlockOf, captionsScript, placeCaptions, type Rect } from './burned-captions.ts';
import { type ClipTiming, clipMouthFrames, clipTiming, speechLoudness } from './clip-timeline.ts';
import { BotCompositor } from './compositor.ts';
import { fontFilePath, fontsFor, THEME_FONT_FILES } from './fonts.ts';
import { footageBot } from './footage/footage-bot.ts';
import { type ImageLayer, imageBoxOf, imageLayerFilters, imageLayerInputArgs } from './image-layers.ts';
import { botHeightFor, headBoxOf, layoutFor, standsOnBottomEdge } from './layout.ts';
import { loadSprites, lookManifest } from './sprites.ts';
import { overlayEvent, overlayStyles, placeTextOverlays } from './text-overlays.ts';
import {
  FPS,
  type RenderClipInput,
  type RenderClipOutput,
  type RenderTimings,
  type SpeechResult,
  SpeechTooLongError,
  SpokenTextTooLongError,
} from './types.ts';

const f = (n: number) => Number(n.toFixed(4)).toString();
const easeOut = (p: string) => `(1-pow(1-(${p}),3))`;
const easeIn = (p: string) => `pow(${p},3)`;

/** Overlay x/y expressions for the slide transitions (ffmpeg evaluates them per frame): from and to the frame's edges. */
function slideExpressions(transitions: Transitions, timing: ClipTiming, frame: FrameSize, x0: number, y0: number, w: number) {
  let x = `${x0}`;
  let y = `${y0}`;
  const T = TRANSITION_SECONDS;
  const outStart = timing.totalSeconds - timing.exitSeconds;
  const pIn = `t/${f(T)}`;
  const pOut = `(t-${f(outStart)})/${f(T)}`;
  const from = (start: number, end: number, ease: string) => `${start}+${end - start}*${ease}`;
  switch (transitions.exit) {
    case 'slide_out_left':
      x = `if(gt(t,${f(outStart)}),${from(x0, -w, easeIn(pOut))},${x})`;
      break;
    case 'slide_out_right':
      x = `if(gt(t,${f(outStart)}),${from(x0, frame.width, easeIn(pOut))},${x})`;
      break;
    case 'slide_out_down':
      y = `if(gt(t,${f(outStart)}),${from(y0, frame.height, easeIn(pOut))},${y})`;
      break;
    default:
      break;
  }
  switch (transitions.entry) {
    case 'slide_in_left':
      x = `if(lt(t,${f(T)}),${from(-w, x0, easeOut(pIn))},${x})`;
      break;
    case 'slide_in_right':
      x = `if(lt(t,${f(T)}),${from(frame.width, x0, easeOut(pIn))},${x})`;
      break;
    case 'slide_in_up':
      y = `if(lt(t,${f(T)}),${from(frame.height, y0, easeOut(pIn))},${y})`;
      break;
    default:
      break;
  }
  return { x, y, animated: x !== `${x0}` || y !== `${y0}` };
}

/** Scale of the bot per frame for zoom_in (a springy pop from nothing) and zoom_out (shrinks away). */
function zoomFactor(frame: number, transitions: Transitions, timing: ClipTiming): number {
  if (transitions.entry === 'zoom_in' && frame < timing.entryFrames) {
    const p = frame / timing.entryFrames;
    const c = 1.70158;
    return 1 + (c + 1) * (p - 1) ** 3 + c * (p - 1) ** 2;
  }
  const exitStart = timing.frames - timing.exitFrames;
  if (transitions.exit === 'zoom_out' && frame >= exitStart) {
    const p = (frame - exitStart + 1) / timing.exitFrames;
    return Math.max(0, 1 - p * p);
  }
  return 1;
}

/**
 * The `ass` filter that draws a clip's burned cues and its text overlays, in one script, in the theme's font and
 * colours: the captions placed clear of the presenter, the overlays clear of both. The script and a folder holding
 * only the fonts it needs (libass loads every file of `fontsdir`) are written into the work directory. Undefined
 * when there is nothing to draw.
 */
function burnText(input: RenderClipInput, cues: Cue[], bot: Rect, head: Rect, clipSeconds: number, layers: ReadyImageLayer[]): string | undefined {
  const { frame, workDir } = input;
  const theme = input.theme ?? DEFAULT_THEME;
  const font = THEME_FONT_FILES[theme.font];
  const texts = (input.overlays ?? []).filter((o): o is TextOverlay => o.type === 'text');
  const charWidth = (CAPTION_CHAR_WIDTH * font.charWidth) / THEME_FONT_FILES.inter.charWidth;
  const longest = Math.max(0, ...cues.flatMap((cue) => cue.lines.map((line) => [...line].length)));
  const place = placeCaptions(frame, bot, longest || undefined, head, charWidth);
  const images = layers.map((l) => ({ box: imageBoxOf(frame, l.image, l.position, l.size), start: l.start ?? 0, end: l.end ?? clipSeconds }));
  const keepClear = { presenter: bot, images, ...(cues.length && { captions: captionBlockOf(place) }) };
  const placed = placeTextOverlays(frame, texts, keepClear, clipSeconds, font);
  if (!cues.length && !placed.length) return undefined;
  const script = join(workDir, 'text.ass');
  const overlays = { styles: placed.length ? overlayStyles(theme, font) : [], events: placed.map((p) => overlayEvent(p, font, frame)) };
  writeFileSync(script, captionsScript(cues, frame, place, theme, overlays));
  const fonts = join(workDir, 'fonts');
  mkdirSync(fonts, { recursive: true });
  for (const file of fontsFor([...cues.flatMap((c) => c.lines), ...placed.flatMap((p) => p.lines)], font))
    symlinkSync(fontFilePath(file), join(fonts, file.file));
  // Filter option values: the work directory is ours (letters, digits, / _ . -), never a caller's string.
  for (const path of [script, fonts]) if (!/^[\w/.-]+$/.test(path)) throw new Error(`unexpected characters in work path ${path}`);
  return `ass=filename=${script}:fontsdir=${fonts}`;
}

async function renderVoice(speech: SpeechResult, shown: string, input: RenderClipInput, speechMs: number): Promise<RenderClipOutput> {
  const started = performance.now();
  const path = join(input.workDir, 'voice.mp3');
  await runFfmpeg(['-y', '-protocol_whitelist', 'file', '-f', 'wav', '-i', speech.wavPath, ...VOICE_ENCODE_ARGS, path], {
    budgetSeconds: budgetOf(input, speech.durationSeconds),
  });
  const duration = (await probe(path, 'mp3')).format.duration;
  const timings: RenderTimings = { speechMs, setupMs: 0, firstFrameMs: 0, drawMs: 0, encodeMs: Math.round(performance.now() - started) };
  const cues = cuesFromWords(shown, speech.words);
  return {
    path,
    contentType: VOICE_CONTENT_TYPE,
    durationSeconds: duration !== undefined && Number.isFinite(duration) ? duration : speech.durationSeconds,
    cues,
    timings,
  };
}

/** The encode's budget: its share of media.ts budgetFor, never past the input's deadline. */
function budgetOf(input: RenderClipInput, mediaSeconds: number): number {
  const budget = budgetFor(mediaSeconds) * (input.budgetScale ?? 1);
  return input.deadline === undefined ? budget : Math.max(0, Math.min(budget, (input.deadline - Date.now()) / 1000));
}

/** The bot as the clip draws it: its sprites at the frame's scale, its pose in every frame, and where it stands. */
function drawnBot(input: RenderClipInput, speech: SpeechResult, timing: ClipTiming) {
  const { frame, position } = input;
  const size = input.botSize ?? 'medium';
  const artwork = lookManifest(input.bot.look, input.lookDirectory);
  const sprites = loadSprites(input.bot.look, botHeightFor(frame, position, size, artwork), input.lookDirectory);
  // Without its card, a bot standing on the frame's bottom edge ends there; elsewhere its bust fades out.
  const flush = standsOnBottomEdge(position, size, input.removeBotBackground);
  const compositor = new BotCompositor(sprites, {
    withPanel: !input.removeBotBackground,
    bottom: input.removeBotBackground ? (flush ? 'flush' : 'fade') : 'card',
  });
  const loudness = speechLoudness(speech);
  const mouth = clipMouthFrames(speech, timing, sprites.manifest, loudness);
  // The head follows the speech: its stressed syllables (espeak-ng's phonemes), or the loudness's peaks (Polly).
  const framePoses = poses(mouth, FPS, sprites.scale, hashString(`${input.bot.uid}:${input.text}`), {
    phonemes: speech.phonemes,
    loudness,
    startFrame: timing.entryFrames,
  });
  const place = layoutFor(frame, position, sprites.manifest, { size, removeBotBackground: input.removeBotBackground });
  const draw = (i: number) => compositor.render(framePoses[i]!, zoomFactor(i, input.transitions, timing));
  return { compositor, draw, close: () => undefined, place, head: headBoxOf(place, sprites.manifest) };
}
type DrawnBot = Pick<ReturnType<typeof drawnBot>, 'place' | 'head'> & {
  compositor: { width: number; height: number };
  draw: (i: number) => Buffer | Promise<Buffer>;
  close: () => void;
};

/** The presenter's rig: a video bot's footage (engine/footage) or the drawn layers. */
async function presenterOf(input: RenderClipInput, speech: SpeechResult, timing: ClipTiming): Promise<DrawnBot> {
  const manifest = lookManifest(input.bot.look, input.lookDirectory);
  return manifest.footage ? footageBot(input, speech, timing, manifest) : drawnBot(input, speech, timing);
}

/** Input 1: the bot's frames, raw RGBA on stdin. */
const botFramesInputArgs = (compositor: DrawnBot['compositor']) => [
  '-protocol_whitelist',
  'pipe',
  '-f',
  'rawvideo',
  '-pix_fmt',
  'rgba',
  '-s',
  `${compositor.width}x${compositor.height}`,
  '-r',
  `${FPS}`,
  '-i',
  'pipe:0',
];

/** An image layer whose picture is here, and the ffmpeg input that reads it. */
type ReadyImageLayer = Omit<ImageLayer, 'image'> & { image: Awaited<ImageLayer['image']>; input: number };

/**
 * The picture's filters, appended to `graph` after [bg]: the bot over the background, the image layers (the
 * logo), the wipes, the burned captions and the fades. Returns the last label of the chain and whether captions
 * were burned.
 */
function videoChain(
  graph: string[],
  input: RenderClipInput,
  timing: ClipTiming,
  bot: DrawnBot,
  cues: Cue[],
  layers: ReadyImageLayer[],
): { video: string; burned: boolean } {
  const { frame, transitions } = input;
  const { place, compositor } = bot;
  const T = TRANSITION_SECONDS;
  const slide = slideExpressions(transitions, timing, frame, place.x, place.y, compositor.width);
  graph.push(`[bg][1:v]overlay=x='${slide.x}':y='${slide.y}':eval=${slide.animated ? 'frame' : 'init'}:eof_action=pass:format=yuv420[v0]`);
  let video = 'v0';
  /** Appends a filter to the video chain, optionally with a second input label (overlays). */
  const next = (filter: string, second = '') => {
    const label = `v${graph.length}`;
    graph.push(`[${video}]${second ? `[${second}]` : ''}${filter}[${label}]`);
    video = label;
  };
  // The image layers go over the bot, under the transitions: a logo wipes and fades with the picture.
  for (const [i, layer] of layers.entries()) {
    const { source, overlay } = imageLayerFilters(layer, frame, layer.input, `img${i}`);
    graph.push(source);
    next(overlay, `img${i}`);
  }
  const outStart = timing.totalSeconds - timing.exitSeconds;
  if (transitions.entry === 'wipe_in') {
    graph.push(`color=c=black:s=${frame.width}x${frame.height}:r=${FPS}:d=${f(T)}[wipein]`);
    next(`overlay=x='W*${easeOut(`t/${f(T)}`)}':y=0:eval=frame:eof_action=pass`, 'wipein');
  }
  if (transitions.exit === 'wipe_out') {
    graph.push(`color=c=black:s=${frame.width}x${frame.height}:r=${FPS}:d=${f(T + 0.1)},setpts=PTS+${f(outStart)}/TB[wipeout]`);
    next(`overlay=x='-W+W*${easeIn(`min(1,(t-${f(outStart)})/${f(T)})`)}':y=0:eval=frame:eof_action=pass`, 'wipeout');
  }
  // Burned captions and text overlays go over the picture and the bot, under the fades (they fade with the picture).
  const burned = input.captions === 'burn' && cues.length > 0 && isBurnable(input.text);
  const text = burnText(input, burned ? cues : [], place, bot.head, timing.totalSeconds, layers);
  if (text) next(text);
  if (transitions.entry === 'fade_in') next(`fade=t=in:st=0:d=${f(T)}`);
  if (transitions.exit === 'fade_out') next(`fade=t=out:st=${f(outStart)}:d=${f(T)}`);
  return { video, burned };
}

/** The sound's filters, appended to `graph`: the speech after the entry, mixed with the background's audio, faded. Returns its label. */
function audioChain(graph: string[], input: RenderClipInput, timing: ClipTiming, backgroundAudio: boolean): string {
  const T = TRANSITION_SECONDS;
  const outStart = timing.totalSeconds - timing.exitSeconds;
  const delayMs = Math.round(timing.entrySeconds * 1000);
  graph.push(`[2:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=mono${delayMs ? `,adelay=${delayMs}` : ''},apad[speech]`);
  if (backgroundAudio && input.backgroundVolume > 0) {
    graph.push(`[0:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,volume=${f(input.backgroundVolume)}[bga]`);
    graph.push(`[speech][bga]amerge=inputs=2,pan=stereo|c0=c0+c1|c1=c0+c2[a0]`);
  } else {
    graph.push(`[speech]pan=stereo|c0=c0|c1=c0[a0]`);
  }
  let audio = 'a0';
  const audioFades: string[] = [];
  if (input.transitions.entry === 'fade_in') audioFades.push(`afade=t=in:st=0:d=${f(T)}`);
  if (input.transitions.exit === 'fade_out') audioFades.push(`afade=t=out:st=${f(outStart)}:d=${f(T)}`);
  if (audioFades.length) {
    graph.push(`[a0]${audioFades.join(',')}[a1]`);
    audio = 'a1';
  }
  return audio;
}

/** The outputs: the clip (H.264 + AAC, `seconds` long) from [vout] and `audio`, and the poster from [poster]. */
const outputArgs = (graph: string[], audio: string, seconds: number, output: string, posterPath: string) => [
  '-filter_complex',
  graph.join(';'),
  '-map',
  '[vout]',
  '-map',
  `[${audio}]`,
  ...VIDEO_ENCODE_ARGS,
  '-r',
  `${FPS}`,
  ...AUDIO_ENCODE_ARGS,
  '-t',
  f(seconds),
  '-movflags',
  '+faststart',
  output,
  '-map',
  '[poster]',
  ...POSTER_ENCODE_ARGS,
  posterPath,
];

/** How many inputs (`-i`) an ffmpeg command line has so far: the index of the next one. */
const inputCount = (args: string[]) => args.filter((a) => a === '-i').length;

export async function renderClip(input: RenderClipInput): Promise<RenderClipOutput> {
  // Where the time goes (RenderClipOutput.timings; the render job logs them).
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  const script = speechScriptOf(input.text, input.pronunciations);
  const spokenChars = script.parts.reduce((n, part) => n + (part.kind === 'speech' ? part.text.length : 0), 0);
  if (spokenChars > limits.maxSpokenChars) throw new SpokenTextTooLongError(spokenChars, limits.maxSpokenChars);
  const speech = await input.speech.synthesize(script, input.voice, input.workDir);
  const speechMs = ms();
  if (speech.durationSeconds > limits.maxSpeechSeconds) throw new SpeechTooLongError(speech.durationSeconds, limits.maxSpeechSeconds);
  if (input.mode === 'voice') return renderVoice(speech, script.shown, input, speechMs);

  const timing = clipTiming(speech.durationSeconds, input.transitions);
  const bot = await presenterOf(input, speech, timing);
  const D = timing.totalSeconds;
  // The speech starts after the entry transition: so do its captions.
  const cues = cuesFromWords(script.shown, speech.words, timing.entrySeconds);

  // Inputs: 0 background, 1 the bot's frames on stdin, 2 the speech. Every input is pinned to its demuxer.
  const background = await backgroundInput(input, input.frame);
  const args: string[] = ['-y', ...background.args, ...botFramesInputArgs(bot.compositor)];
  args.push('-protocol_whitelist', 'file', '-f', 'wav', '-i', speech.wavPath);
  // Then one input per image layer, each downloaded while the speech was synthesised.
  const layers: ReadyImageLayer[] = [];
  for (const layer of input.imageLayers ?? []) {
    const image = await layer.image;
    layers.push({ ...layer, image, input: inputCount(args) });
    args.push(...imageLayerInputArgs(image));
  }

  const graph: string[] = [background.filter];
  const { video, burned } = videoChain(graph, input, timing, bot, cues, layers);
  const audio = audioChain(graph, input, timing, background.hasAudio);
  // The poster: one frame of the finished picture, split off before the encoder (no second decode later).
  const posterFrame = Math.max(0, Math.min(timing.frames - 1, Math.round(posterSecondsOf(input.transitions, D) * FPS)));
  graph.push(`[${video}]split=2[vout][vposter]`, `[vposter]trim=start_frame=${posterFrame}:end_frame=${posterFrame + 1}[poster]`);

  const output = join(input.workDir, 'clip.mp4');
  const posterPath = join(input.workDir, 'poster.jpg');
  args.push(...outputArgs(graph, audio, D, output, posterPath));

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
          const frame = bot.draw(i);
          drawMs += performance.now() - s;
          if (i === 0) firstFrameMs = ms();
          return frame;
        },
      },
      onProgress: input.onProgress,
    });
  } finally {
    bot.close();
  }
  const timings: RenderTimings = { speechMs, setupMs: setupMs - speechMs, firstFrameMs, drawMs: Math.round(drawMs), encodeMs: ms() - setupMs };
  return { path: output, contentType: VIDEO_CONTENT_TYPE, durationSeconds: Number(D.toFixed(3)), cues, captionsBurned: burned, posterPath, timings };
}
