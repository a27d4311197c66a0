/**
 * The footage rig: a video bot drawn from its recording (docs/video-bots.md). Each output frame is the next frame
 * of the base loop (decoded by ffmpeg at the bot's size, streamed) with its lower face replaced by the atlas's
 * sample of the mouth frame the lip sync planned (./mouth-blend.ts). The sample of a mouth frame is chosen once per
 * held shape (the one that meets the frame where the shape starts best along the seam) and kept while the shape
 * holds, so the mouth is as still as the person's own while one shape lasts.
 *
 * With `footage: "as_recorded"` the frames are the whole recording's, from its start, once, in real time (a
 * recording of fewer than 30 frames a second shows a frame again as long as it lasts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Point } from '#domain/face-space';
import { type BotManifest, type FootageLoop, type FootageManifest, footageMatted, type MouthSample } from '#domain/look';
import { readFootage } from '#media/footage-media';
import type { FrameReader } from '#media/media';
import type { MouthFrame } from '../animation.ts';
import { FPS, SpeechLongerThanRecordingError } from '../types.ts';
import { FootageLoopReader, type KeptBytes, MAX_KEPT_LOOP_BYTES, mixPoints, type ShownFrame } from './footage-loop.ts';
import { type AtlasSheet, atlasSheetOf, blendMouth, seamMismatches } from './mouth-blend.ts';
import { MouthSampleChoice, type SampleScore } from './mouth-samples.ts';

/** How the rig covers the clip: the base loop, over and over, or the recording once from its start. */
export type FootagePlay = 'loop' | 'as_recorded';

/** A card's rounded corner, as a share of the bot's height (the footage is the card). */
const CORNER_SHARE = 0.035;
/** A cut-out figure that does not stand on the frame's bottom edge fades out over this share of its height. */
const FADE_SHARE = 0.15;

/** The person cut out of the recording's backdrop (`remove_bot_background`); `fadeBottom` where the bust would end in mid-air. */
export interface Cutout {
  fadeBottom: boolean;
}

export class FootageRig {
  readonly width: number;
  readonly height: number;
  private readonly footage: FootageManifest;
  private readonly track: Point[][];
  /** 1 for each recording's frame where no face was seen facing the camera: shown untouched, without a mouth. */
  private readonly unseen: Uint8Array;
  /** The rig's pixels per pixel of the footage. */
  readonly scale: number;
  /** The card's rounded corners: the pixels whose alpha is under 255, and their alpha. */
  private readonly corners: { at: Uint32Array; alpha: Uint8Array };
  /** A cut-out figure's alpha factor on each row (fading out toward its bottom edge), or undefined. */
  private readonly fade?: Float32Array;
  private reader?: FrameReader;
  /** The base loop, and the listening loop when the look has one (./footage-listening.ts). */
  private speaking?: FootageLoopReader;
  private listening?: FootageLoopReader;
  /** What the loops may still keep of their first time round (MAX_KEPT_LOOP_BYTES). */
  private readonly keptBytes: KeptBytes = { left: MAX_KEPT_LOOP_BYTES };
  /** As recorded: the recording's frame last read (its index, and its pixels before a mouth was laid on them). */
  private recorded?: { index: number; pixels: Buffer };
  /** Which atlas sample each frame shows (./mouth-samples.ts). */
  private readonly choice: MouthSampleChoice;
  /** What the last frame drew: its landmarks (px of the rig) and the sample laid on them (the measures read it). */
  drawn?: { landmarks: Point[]; sample: MouthSample };

  private constructor(
    private readonly dir: string,
    manifest: BotManifest,
    height: number,
    private readonly sheet: AtlasSheet,
    rounded: boolean,
    private readonly play: FootagePlay,
    private readonly cutout?: Cutout,
  ) {
    this.footage = manifest.footage!;
    this.choice = new MouthSampleChoice(this.footage.samples);
    this.height = 2 * Math.round(height / 2);
    this.width = 2 * Math.round((manifest.width * this.height) / manifest.height / 2);
    this.scale = this.height / this.footage.height;
    const raw = JSON.parse(readFileSync(join(dir, this.footage.track), 'utf8')) as number[][];
    this.track = raw.map((frame) => Array.from({ length: frame.length / 2 }, (_, i) => ({ x: frame[2 * i]!, y: frame[2 * i + 1]! })));
    this.unseen = new Uint8Array(this.footage.frames);
    for (const [from, to] of this.footage.unseen ?? []) this.unseen.fill(1, from, to);
    this.corners = cornerCuts(this.width, this.height, rounded ? Math.round(CORNER_SHARE * this.height) : 0);
    this.fade = cutout?.fadeBottom ? bottomFade(this.height) : undefined;
  }

  /**
   * The rig of the look in `dir` at `height` px; `rounded` draws the card's corners; `cutout` shows the person
   * alone, by the loops' mattes (a look without them, or as recorded, cannot).
   */
  static async open(
    dir: string,
    manifest: BotManifest,
    height: number,
    rounded: boolean,
    play: FootagePlay = 'loop',
    cutout?: Cutout,
  ): Promise<FootageRig> {
    if (cutout && (play !== 'loop' || !footageMatted(manifest.footage!))) throw new Error("this video bot's look has no matte for its footage");
    const sheet = atlasSheetOf(await readFile(join(dir, manifest.footage!.atlas)));
    return new FootageRig(dir, manifest, height, sheet, rounded, play, cutout);
  }

  /** How long the recording plays, seconds. */
  get recordingSeconds(): number {
    return this.footage.frames / this.footage.fps;
  }

  /** Refuses a clip of `frames` frames that the recording, played once, cannot cover. */
  ensureCovers(frames: number): void {
    if (this.play === 'as_recorded' && this.recordedIndex(frames - 1) >= this.footage.frames)
      throw new SpeechLongerThanRecordingError(frames / FPS, this.recordingSeconds);
  }

  /**
   * Frame `i` of the clip (RGBA, width x height) with `mouth`, `listening` of it from the listening loop (0 to 1;
   * ignored as recorded, or without a listening loop); asked for in order from 0.
   */
  async render(i: number, mouth: MouthFrame, seconds: number, listening = 0): Promise<Buffer> {
    const shown: ShownFrame = this.play === 'as_recorded' ? await this.recordedFrame(i, seconds) : await this.loopFrame(listening, seconds);
    const { frame } = shown;
    // The listening loop is a stretch where the person's mouth was closed and still: while the bot is silent on it,
    // their own closed mouth shows, the laid one fading out as the loop fades in.
    const strength = 1 - this.listeningShare(listening);
    // The track holds the last face seen here, not a face: a mouth laid on it would float where there is none.
    if (strength <= 0 || shown.sources.some((s) => this.unseen[s])) {
      this.drawn = undefined;
      this.choice.forget();
      return this.withCorners(frame);
    }
    const landmarks = shown.landmarks.map((p) => ({ x: p.x * this.scale, y: p.y * this.scale }));
    const { width, height, sheet } = this;
    const { reference, eyePx } = this.footage;
    const score: SampleScore = (candidates) => seamMismatches({ frame, width, height, landmarks, reference, eyePx, sheet }, candidates);
    const sample = this.choice.shown(mouth.frame, score);
    this.drawn = { landmarks, sample };
    const toward =
      mouth.toward && mouth.toward.amount > 0 ? { sample: this.choice.toward(mouth.toward.frame, score), amount: mouth.toward.amount } : undefined;
    blendMouth({ frame, width, height, landmarks, reference, eyePx, sheet, sample, toward, strength });
    return this.withCorners(frame);
  }

  /** `frame` with the card's rounded corners cut into its alpha, or a cut-out figure's bottom faded. */
  private withCorners(frame: Buffer): Buffer {
    if (this.fade) {
      const { fade, width } = this;
      for (let y = 0; y < fade.length; y++) {
        if (fade[y] === 1) continue;
        for (let p = y * width * 4 + 3, end = p + width * 4; p < end; p += 4) frame[p] = Math.round(frame[p]! * fade[y]!);
      }
      return frame;
    }
    const { at, alpha } = this.corners;
    for (let k = 0; k < at.length; k++) frame[at[k]! * 4 + 3] = alpha[k]!;
    return frame;
  }

  close() {
    this.reader?.close();
    this.speaking?.close();
    this.listening?.close();
  }

  /**
   * The next frame of the base loop, of the listening loop, or of both mixed (`listening` of the latter): each loop
   * goes on from where it was left, so a switch back shows the frames that follow the ones shown last.
   */
  private async loopFrame(listening: number, seconds: number): Promise<ShownFrame> {
    const listen = this.footage.listen;
    const share = this.listeningShare(listening);
    const open = (loop: FootageLoop) =>
      new FootageLoopReader(
        readFootage(join(this.dir, (this.cutout && loop.cutout) || loop.file), this, { loop: true, seconds }),
        loop,
        this.track,
        this.cutout && loop.matte ? readFootage(join(this.dir, loop.matte), this, { loop: true, seconds, grey: true }) : undefined,
        this.width * this.height,
        this.keptBytes,
      );
    if (share < 1) this.speaking ??= open(this.footage.loop);
    if (share > 0) this.listening ??= open(listen!);
    if (share === 0) return this.speaking!.next();
    if (share === 1) return this.listening!.next();
    return mixShown(await this.speaking!.next(), await this.listening!.next(), share);
  }

  /** How much of the listening loop a frame shows: `listening` as asked, 0 as recorded or without a listening loop. */
  private listeningShare(listening: number): number {
    return this.play === 'loop' && this.footage.listen ? Math.min(1, Math.max(0, listening)) : 0;
  }

  /** The recording's frame shown at the clip's frame `i`: the one on screen at that moment of the recording. */
  private recordedIndex(i: number): number {
    return Math.floor((i * this.footage.fps) / FPS + 1e-6);
  }

  /** Frame `i` of the clip as recorded: the recording's frame of that moment, read in order, a copy kept to show again. */
  private async recordedFrame(i: number, seconds: number): Promise<ShownFrame> {
    const source = this.recordedIndex(i);
    this.reader ??= readFootage(join(this.dir, this.footage.file), this, { loop: false, seconds });
    while (!this.recorded || this.recorded.index < source) {
      const pixels = await this.reader.next();
      if (!pixels) throw new SpeechLongerThanRecordingError((i + 1) / FPS, this.recordingSeconds);
      this.recorded = { index: (this.recorded?.index ?? -1) + 1, pixels: Buffer.from(pixels) };
    }
    return { frame: Buffer.from(this.recorded.pixels), landmarks: this.track[source]!, sources: [source] };
  }
}

/**
 * Two shown RGBA frames crossfaded, `amount` of `b` (pixels and landmarks alike); `a`'s pixels are reused. Colours
 * mix weighted by their alpha (premultiplied), so where one frame is a cut-out's removed backdrop (alpha 0) its
 * colour does not show; where both are opaque this is the plain crossfade.
 */
function mixShown(a: ShownFrame, b: ShownFrame, amount: number): ShownFrame {
  const weight = Math.round(amount * 256);
  const pixels = a.frame;
  const other = b.frame;
  for (let p = 0; p < pixels.length; p += 4) {
    const alphaA = pixels[p + 3]!;
    const alphaB = other[p + 3]!;
    if (alphaA === alphaB) {
      for (let c = p; c < p + 3; c++) pixels[c] = pixels[c]! + (((other[c]! - pixels[c]!) * weight) >> 8);
      continue;
    }
    const wA = alphaA * (256 - weight);
    const wB = alphaB * weight;
    const total = wA + wB;
    pixels[p + 3] = (total + 128) >> 8;
    if (total === 0) continue;
    for (let c = p; c < p + 3; c++) pixels[c] = Math.round((pixels[c]! * wA + other[c]! * wB) / total);
  }
  return { frame: pixels, landmarks: mixPoints(a.landmarks, b.landmarks, amount), sources: [...a.sources, ...b.sources] };
}

/** The pixels of a card with rounded corners whose alpha is under 255 (the corners'), and their alpha. */
function cornerCuts(width: number, height: number, radius: number): { at: Uint32Array; alpha: Uint8Array } {
  const all = cornerAlpha(width, height, radius);
  const cut: number[] = [];
  for (let p = 0; p < all.length; p++) if (all[p]! < 255) cut.push(p);
  const at = Uint32Array.from(cut);
  return { at, alpha: Uint8Array.from(at, (p) => all[p]!) };
}

/** Alpha of a card with rounded corners (255 inside), per pixel. */
function cornerAlpha(width: number, height: number, radius: number): Uint8Array {
  const alpha = new Uint8Array(width * height).fill(255);
  if (radius <= 0) return alpha;
  for (let y = 0; y < radius; y++)
    for (let x = 0; x < radius; x++) {
      const d = Math.hypot(radius - x - 0.5, radius - y - 0.5) - radius;
      const a = Math.round(255 * Math.max(0, Math.min(1, 0.5 - d)));
      for (const [cx, cy] of [
        [x, y],
        [width - 1 - x, y],
        [x, height - 1 - y],
        [width - 1 - x, height - 1 - y],
      ])
        alpha[cy! * width + cx!] = a;
    }
  return alpha;
}

/** Each row's alpha factor: 1, then down to 0 over the last FADE_SHARE of the height (smoothstep). */
function bottomFade(height: number): Float32Array {
  const rows = Math.max(1, Math.round(FADE_SHARE * height));
  return Float32Array.from({ length: height }, (_, y) => {
    const t = Math.min(1, Math.max(0, (height - 1 - y) / rows));
    return t * t * (3 - 2 * t);
  });
}
