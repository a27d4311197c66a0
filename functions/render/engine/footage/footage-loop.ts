/**
 * A video bot's footage loop read for the rig (footage-rig.ts): its frames one after another, over and over, each
 * with its landmarks, the loop's first time round kept to lay again (docs/video-bots.md, "Render cost").
 */
import type { Point } from '#domain/face-space';
import { type FootageLoop, loopFrameSources } from '#domain/look';
import type { FrameReader } from '#media/media';

/** A frame of the footage as the rig shows it: its pixels, its landmarks (px of the footage), the recording's frames mixed in it. */
export interface ShownFrame {
  frame: Buffer;
  landmarks: Point[];
  sources: number[];
}

/**
 * The most memory a rig keeps its loops' first time round in, decoded, all its loops together: a loop's frames
 * (RGBA, the matte's alpha in them: 4 x width x height x frames) when they fit, else its matte alone (one byte a
 * pixel), else nothing (decoded again every time round). A loop is at most 211 frames (7 s): its frames fit up to
 * a bot about 550 px square (a `medium` 1080p card is 498 px: 199 MB), its matte up to about 1,100 px.
 * @internal Exported for its tests.
 */
export const MAX_KEPT_LOOP_BYTES = 256 * 1024 * 1024;

/** What a rig has left of MAX_KEPT_LOOP_BYTES, shared by its loops' readers. */
export interface KeptBytes {
  left: number;
}

/**
 * A loop of the footage read frame after frame, over and over, each frame with its landmarks and recording's
 * frames. The loop repeats the same frames, so its first time round is kept (KeptBytes allowing) and laid again each
 * time after: decoding and scaling the footage and its matte again cost the render a few CPU s a minute
 * (docs/video-bots.md, "Render cost").
 */
export class FootageLoopReader {
  private count = 0;
  private readonly period: number;
  /** The loop's frames kept ('frames'), its matte's ('matte'), or none. */
  private readonly keeps: 'frames' | 'matte' | 'none';
  private readonly kept: Buffer[] = [];

  constructor(
    private reader: FrameReader | undefined,
    private readonly loop: FootageLoop,
    private readonly track: readonly Point[][],
    /** The loop's matte (one grey byte a pixel), read alongside: the person cut out of the recording's backdrop. */
    private matte: FrameReader | undefined,
    pixels: number,
    budget: KeptBytes,
  ) {
    this.period = loop.to - loop.from;
    const cost = { frames: 4 * pixels * this.period, matte: pixels * this.period };
    this.keeps = cost.frames <= budget.left ? 'frames' : matte && cost.matte <= budget.left ? 'matte' : 'none';
    if (this.keeps !== 'none') budget.left -= cost[this.keeps];
  }

  /** The loop's next frame (the caller's to change); in the crossfade at its end, the frame mixed into it and its landmarks mixed alike. */
  async next(): Promise<ShownFrame> {
    const n = this.count++;
    const frame = n >= this.period && this.keeps === 'frames' ? Buffer.from(this.kept[n % this.period]!) : await this.decoded(n);
    const { source, mixed, amount } = loopFrameSources(this.loop, n);
    if (mixed === undefined) return { frame, landmarks: this.track[source]!, sources: [source] };
    return { frame, landmarks: mixPoints(this.track[source]!, this.track[mixed]!, amount), sources: [source, mixed] };
  }

  /** The clip's frame `n` decoded, the matte's alpha in it; on the first time round, kept if the loop keeps its frames. */
  private async decoded(n: number): Promise<Buffer> {
    const frame = await this.reader?.next();
    if (!frame) throw new Error('the footage loop ended early');
    const alpha = await this.matteFrame(n);
    if (alpha) for (let p = 0; p < alpha.length; p++) frame[p * 4 + 3] = alpha[p]!;
    if (this.keeps === 'frames') {
      this.kept.push(Buffer.from(frame));
      // The loop's every frame kept: nothing more to decode.
      if (this.kept.length === this.period) this.close();
    }
    return frame;
  }

  /** The matte's frame `n` of the clip (undefined: no matte): read the first time round, then the one kept. */
  private async matteFrame(n: number): Promise<Buffer | undefined> {
    if (this.keeps === 'matte' && n >= this.period) return this.kept[n % this.period];
    const alpha = await this.matte?.next();
    if (this.matte && !alpha) throw new Error("the footage loop's matte ended early");
    if (alpha && this.keeps === 'matte') {
      // The reader may reuse its buffer on its next call: the kept matte is a copy.
      this.kept.push(Buffer.from(alpha));
      if (this.kept.length === this.period) {
        this.matte?.close();
        this.matte = undefined;
      }
    }
    return alpha;
  }

  close() {
    this.reader?.close();
    this.matte?.close();
    this.reader = undefined;
    this.matte = undefined;
  }
}

/** `a` moved `amount` of the way to `b`, point by point. */
export const mixPoints = (a: readonly Point[], b: readonly Point[], amount: number): Point[] =>
  a.map((p, j) => ({ x: p.x + (b[j]!.x - p.x) * amount, y: p.y + (b[j]!.y - p.y) * amount }));
