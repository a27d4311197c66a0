/**
 * Contract of the media engine: pure rendering on local files, no AWS, no network, no environment. The render job
 * (functions/render/clip-job.ts) fetches the background, the images and the look, calls the engine, stores the
 * result.
 */
import type { Bot } from '#domain/bot';
import type { Cue, TimedWord } from '#domain/captions';
import type { BotPosition, BotSize, CaptionMode } from '#domain/choices';
import type { Transitions } from '#domain/clip';
import type { LexiconEntry, SpeechScript } from '#domain/lexicon';
import type { Overlay, Theme } from '#domain/overlays';
import type { FrameSize } from '#domain/shape';
import type { SpokenWord } from '#domain/spoken-words';
import type { SpeechVoice } from '#domain/voices';
import type { BackgroundMedia } from '#media/background-media';
import type { CarriedCard } from './carried-backdrop.ts';
import type { ImageLayer } from './image-layers.ts';
import type { BotBox } from './layout.ts';
import type { VisemeSpan } from './visemes.ts';

/** Bumped whenever a change alters the pixels or sound the engine produces: it is part of every clip's content hash. */
export const RENDERER_VERSION = '18';

/** Frames per second of every clip, whatever its size (clips join by stream copy). */
export const FPS = 30;

export interface SpeechResult {
  /** 16-bit PCM mono WAV file. */
  wavPath: string;
  sampleRate: number;
  durationSeconds: number;
  /** Mouth openness cues from the engine (Polly visemes), if it gives them; otherwise the envelope drives the mouth. */
  visemes?: { timeMs: number; value: string }[];
  /** When each word is said: offsets into the script's shown text (the clip's text without its markup; not a normalised form). */
  words: TimedWord[];
  /** When each sound is made, if the engine tells (espeak-ng does, in every language): they shape the mouth and lead the head. */
  phonemes?: TimedPhoneme[];
  /** The mouth's shapes read from the sound itself (a recording without a transcript: speech/spectral-visemes.ts). */
  spectralVisemes?: VisemeSpan[];
}

/** A sound of the speech, as the engine made it. */
export interface TimedPhoneme {
  /** The sound in IPA (`m`, `ˈɑː`, `iː`, `ʊ`), stress marks removed. */
  ipa: string;
  startSeconds: number;
  endSeconds: number;
  /** Lexical stress of a vowel: 1 primary (`ˈ`), 2 secondary (`ˌ`), 0 none. */
  stress: 0 | 1 | 2;
}

export interface SpeechEngine {
  readonly name: string;
  /**
   * Speaks `script` (the clip's text with its markup read and its pronunciations applied: domain/lexicon.ts
   * speechScriptOf) with `voice` (one of this engine's voice ids) into a WAV file in workDir. Breaks are silences
   * of their length; emphasis and spelling as the engine can (docs/bots-and-voices.md).
   */
  synthesize(script: SpeechScript, voice: SpeechVoice, workDir: string): Promise<SpeechResult>;
  /** The longest speech it may give a clip, seconds (a caller's recording may be longer than synthesis). @default limits.maxSpeechSeconds */
  readonly maxSeconds?: number;
  /** The longest text as said it takes, characters (a recording's transcript is longer). @default limits.maxSpokenChars */
  readonly maxSpokenChars?: number;
}

/** What the engine needs of every clip: what it says, with which voice, and the run's directory and budget. */
interface SpokenClipInput {
  /** The clip's text, with its markup (domain/speech-markup.ts). */
  text: string;
  /** The account's lexicon entries that apply to this text (domain/lexicon.ts pronunciationsFor). @default [] */
  pronunciations?: LexiconEntry[];
  /** The voice the clip is spoken with (domain voiceToSpeak): `speech` is this voice's engine. */
  voice: SpeechVoice;
  /** An empty directory the engine may use; the caller removes it. */
  workDir: string;
  speech: SpeechEngine;
  /** Multiplies the render's time budget (media.ts budgetFor). @default 1 */
  budgetScale?: number;
  /**
   * Epoch ms by which the encode must be over (the function's own time limit, less what the job needs after it):
   * the budget never runs past it, so the watchdog, not the platform, stops a slow render.
   */
  deadline?: number;
  /** Progress 0..1 while encoding, for logs. */
  onProgress?: (fraction: number) => void;
}

/** A voice clip: the speech alone, as MP3. It has no picture. */
export interface VoiceClipInput extends SpokenClipInput {
  mode: 'voice';
}

/** A video clip: `frame`-sized 30 fps H.264 yuv420p + AAC MP4 with faststart, and its poster. */
export interface VideoClipInput extends SpokenClipInput {
  mode: 'video';
  bot: Bot;
  /** Where the bot's look (manifest.json and its layers) is, when it is not a built-in look (see sprites.ts loadSprites). */
  lookDirectory?: string;
  position: BotPosition;
  /** How big the bot is drawn (layout.ts). @default 'medium' */
  botSize?: BotSize;
  removeBotBackground: boolean;
  /** A video bot's recording played once from its start instead of its base loop (docs/video-bots.md). */
  footage?: 'as_recorded';
  /**
   * The downloaded (guarded) and inspected background (see inspectBackground), or its download still under way:
   * the engine synthesises the speech meanwhile and waits for it only then. Absent means the default backdrop.
   */
  background?: BackgroundMedia | Promise<BackgroundMedia>;
  /** 0..1, gain of the background's own audio under the voice. */
  backgroundVolume: number;
  transitions: Transitions;
  /** The picture's size (the video's shape: domain/shape.ts frameSizeOf); the bot and the background are laid out in it. */
  frame: FrameSize;
  /**
   * Pictures drawn over the clip (overlays' images, then the video's logo), in order, the last on top: over the
   * presenter, under the wipes, the burned text and the fades (layers/index.ts).
   */
  imageLayers?: ImageLayer[];
  /** 'burn' draws the clip's captions into the picture (text the caption font cannot draw is not burned). @default 'none' */
  captions?: CaptionMode;
  /**
   * The clip's overlays: the text ones are drawn by the text layer (layers/text.ts); the image ones reach the
   * engine as `imageLayers` (the render job fetches their pictures) and are not read here.
   */
  overlays?: Overlay[];
  /** Font and colours of the text overlays and burned captions. @default DEFAULT_THEME */
  theme?: Theme;
}

/** One clip for the engine, by its `mode`: a voice clip carries what it says, a video clip its picture too. */
export type RenderClipInput = VoiceClipInput | VideoClipInput;

export interface RenderClipOutput {
  /** Path of the result inside workDir. */
  path: string;
  contentType: string;
  durationSeconds: number;
  /** The clip's captions, timed in the clip (a video's speech starts after its entry transition). */
  cues: Cue[];
  /** The clip's spoken words, timed in the clip as its cues are (the video's words file is made of them). */
  words: SpokenWord[];
  /** Whether the captions were drawn into the picture. */
  captionsBurned?: boolean;
  /** A video clip's poster (JPEG inside workDir): its frame at posterSecondsOf, written by the same ffmpeg pass. */
  posterPath?: string;
  /** Where the render's time went, in milliseconds (for the logs and the benchmark's profile). */
  timings?: RenderTimings;
}

export interface RenderTimings {
  /** Speech synthesis. */
  speechMs: number;
  /** Sprites, lip sync, poses and the ffmpeg command, after the speech. */
  setupMs: number;
  /** From the render's start until the first bot frame was handed to ffmpeg. */
  firstFrameMs: number;
  /** Drawing the bot's frames in Node (inside encodeMs, on Node's thread while ffmpeg works on its own). */
  drawMs: number;
  /** The ffmpeg run: background decoding, compositing, encoding, writing the file. */
  encodeMs: number;
}

/**
 * What a clip says is longer than a speech engine takes: `chars` against `maxChars` (limits.maxSpokenChars for the
 * text as said; Polly's request ceiling for its SSML).
 */
export class SpokenTextTooLongError extends Error {
  constructor(
    readonly chars: number,
    readonly maxChars: number,
  ) {
    super(`the text as said is ${chars} characters, more than ${maxChars}`);
    this.name = 'SpokenTextTooLongError';
  }
}

/** The clip's speech lasts longer than its engine may speak (limits.maxSpeechSeconds): refused, whatever renders it. */
export class SpeechTooLongError extends Error {
  constructor(
    readonly seconds: number,
    readonly maxSeconds: number,
  ) {
    super(`speech of ${seconds.toFixed(0)} s is longer than ${maxSeconds} s`);
    this.name = 'SpeechTooLongError';
  }
}

/** A clip with `footage: "as_recorded"` lasts longer than its video bot's recording: refused, never looped. */
export class SpeechLongerThanRecordingError extends Error {
  constructor(
    readonly clipSeconds: number,
    readonly recordingSeconds: number,
  ) {
    super(`a clip of ${clipSeconds.toFixed(1)} s is longer than its recording of ${recordingSeconds.toFixed(1)} s`);
    this.name = 'SpeechLongerThanRecordingError';
  }
}

/** A clip's presenter as the presenter layer sees it: its canvas, where it stands, and its picture per frame. */
export interface Presenter {
  /** The size of its pictures (its canvas, or the part of it in `crop`), px. */
  width: number;
  height: number;
  /**
   * Where its pictures lie on its canvas when they are a part of it (presenter.ts pipedPart), and the canvas's
   * width (a slide moves the whole canvas). Without it, its pictures are its whole canvas.
   */
  crop?: { x: number; y: number; canvasWidth: number };
  /** Where its canvas stands in the frame, and its face there (layout.ts faceBoxOf: captions and text keep clear of them). */
  place: BotBox;
  head: BotBox;
  /** A `full` presenter's card, carried to the frame's edges as its backdrop (carried-backdrop.ts). */
  backdrop?: CarriedCard;
  /**
   * The raw RGBA picture of frame `index` (the buffer may be reused by the next call); asked for in order. A rig
   * that reads its pictures from a stream (a video bot's footage) answers once it has it.
   */
  frame(index: number): Buffer | Promise<Buffer>;
  /** Stops what the rig runs for its frames (a footage decoder), once the clip is drawn or has failed. */
  close?(): void;
}
