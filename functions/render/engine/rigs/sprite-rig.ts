/**
 * What the rigs drawn from a look's sprites share: the figure's mask, the bases (card, back hair and body at one
 * offset), the head frame of a pose (mixed while the mouth changes shape), the warped pictures kept by pose and
 * by turn, the zoom of the zoom transitions, and the frame kept while a pose repeats. Each rig says how the body
 * is drawn under the head and how the head is drawn over it.
 */
import type { FaceGeometry } from '#domain/look';
import { blendOver, forgetRuns, type Mask, mixInto } from '#media/raster/blend';
import { type Box, boundsOf, clipTo, unionOf, widenBox } from '#media/raster/box';
import type { Picture } from '#media/raster/picture';
import type { FramePose, MouthFrame } from '../animation.ts';
import { faceOf, type HeadPose, type WarpRegion, widen } from '../head-motion.ts';
import { PicturePool } from '../picture-pool.ts';
import type { BotSprites } from '../sprites.ts';
import { figureMask } from './figure-mask.ts';
import type { PresenterRig, RigOptions } from './presenter-rig.ts';

/**
 * Bases (panel, hair and body at one offset) kept for reuse: 192 (the offsets times the back hair's tilts and nods), or fewer for a big bot so that they stay within
 * 128 MB (a `full` presenter's canvas at 1080p is 4-5 MB).
 */
const MAX_BASES = 192;
const MAX_BASE_BYTES = 128 * 1024 * 1024;
/**
 * Turned heads (or warped upper figures) kept for reuse: 1024, or fewer within 128 MB. An 87-s clip of Ava `medium`
 * at 720p meets about 560 distinct poses of 186 KB each: all of them stay, so the next clip (rig.ts keeps the rig)
 * warps only the poses it adds, where fewer kept would be evicted in the order they come back.
 */
const MAX_WARPED = 1024;
const MAX_WARPED_BYTES = 128 * 1024 * 1024;
/** Turned back hair kept for reuse: one per tilt (21 steps in ±2.5°). */
export const MAX_BACKS = 24;
/**
 * How far, in canvas units, a pose moves a layer's pixels beyond its own box: the nod (4), the breath (2.4) and the
 * sway (1.2) of animation.ts, and the back hair's turn, with room to spare. The head's warp region has its reach in it.
 */
const MOTION_UNITS = 16;
/** Warped reference frames (by turn) kept for reuse: 48, or fewer within 64 MB. */
const MAX_REFERENCES = MAX_BACKS * 2;
const MAX_REFERENCE_BYTES = 64 * 1024 * 1024;

export abstract class SpriteRig implements PresenterRig {
  readonly width: number;
  readonly height: number;
  protected readonly mask: Mask;
  protected readonly face: FaceGeometry;
  private readonly frame: Picture;
  private readonly bases: PicturePool<Buffer>;
  /** Whether the look has back hair (drawn on the bases at the head's offset). */
  private readonly hasBack: boolean;
  /** Where the head's motion is drawn (set by each rig's constructor). */
  protected abstract readonly headRegion: WarpRegion;
  /**
   * The region's pixels where a head frame may differ from the reference frame once warped (the mouth and the eyes,
   * widened by the motion's reach): a pose's picture is the reference's, warped once per turn, with only these redrawn.
   */
  protected abstract readonly changed: Uint8Array;
  /** Warped heads (or upper figures) kept for reuse, by pose: a clip's tilts and mouths repeat. */
  protected readonly warped = new PicturePool<Picture>({ maxEntries: () => this.maxFor(MAX_WARPED, MAX_WARPED_BYTES) });
  /** The reference frames warped, by turn. */
  private readonly references = new PicturePool<Picture>({ maxEntries: () => this.maxFor(MAX_REFERENCES, MAX_REFERENCE_BYTES) });
  private last?: { key: string; frame: Buffer };
  /** The key of the base `frame` was drawn on, and the box its head was drawn in (all else is the base's). */
  private frameBase?: string;
  private drawn?: Box;
  private mixed?: Picture;
  private zoomBuffer?: Buffer;

  constructor(
    protected readonly sprites: BotSprites,
    protected readonly options: RigOptions,
  ) {
    this.width = sprites.width;
    this.height = sprites.height;
    this.mask = figureMask(sprites, options.bottom ?? (options.withPanel ? 'card' : 'fade'));
    // Each frame starts as a copy of its base: no zero fill.
    this.frame = { width: this.width, height: this.height, data: Buffer.allocUnsafe(this.width * this.height * 4) };
    const maxBases = Math.max(8, Math.min(MAX_BASES, Math.floor(MAX_BASE_BYTES / this.frame.data.length)));
    this.bases = new PicturePool<Buffer>({ maxEntries: maxBases });
    this.face = faceOf(sprites.manifest);
    this.hasBack = boundsOf(sprites.back) !== undefined;
  }

  /** The pose as this rig draws it (a one-picture rig's head does not move apart from its body). */
  protected posed(pose: FramePose): FramePose {
    return pose;
  }

  /** Draws the back hair onto a base, at the head's offset (`turn`: the head's part of the pose), nodded with it. */
  protected drawBack(canvas: Picture, headDx: number, headDy: number, turn: HeadPose): void {
    blendOver(canvas, this.sprites.back, headDx, headDy + turn.nod, this.mask);
  }
  /** The body drawn on every base under the head. */
  protected abstract readonly bodyLayer: Picture;
  /** Draws the pose's head (and whatever moves with it) over the base in `frame`; returns the box it drew in. */
  protected abstract drawHead(frame: Picture, pose: FramePose): Box;

  /** The RGBA frame for a pose; the returned buffer is reused by the next call. */
  render(given: FramePose, zoom = 1): Buffer {
    const pose = this.posed(given);
    // Four frames in ten repeat the one before (the mouth holds, the sway rounds to the same pixel): reused as is.
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${pose.bodyX},${pose.bodyY},${pose.headX},${pose.headY},${pose.tilt ?? 0},${pose.nod ?? 0},${pose.brow ?? 0},${zoom}`;
    if (this.last?.key === key) return this.last.frame;
    this.putBase(pose);
    this.drawn = clipTo(this.drawHead(this.frame, pose), { x: 0, y: 0, width: this.width, height: this.height });
    const frame = zoom >= 0.999 ? this.frame.data : this.zoomed(zoom);
    this.last = { key, frame };
    return frame;
  }

  /**
   * The whole canvas with the card; without it, the figure: the body and back hair and the head's warp region,
   * widened by the pose's motion. A zoom shrinks the figure toward the card's anchor, inside that box.
   */
  extent(): Box {
    const canvas = { x: 0, y: 0, width: this.width, height: this.height };
    if (this.options.withPanel) return canvas;
    const figure = unionOf([boundsOf(this.sprites.body), boundsOf(this.sprites.back), this.headRegion]);
    return figure ? clipTo(widenBox(figure, Math.ceil(MOTION_UNITS * this.sprites.scale)), canvas) : canvas;
  }

  /**
   * Puts the pose's base in the frame. When the frame holds that base already (a clip's body offset repeats for many
   * frames), only the box the last head was drawn in is put back: copying the whole canvas each frame (2.2 MB for a
   * `full` presenter at 720p) cost more than any drawing.
   */
  private putBase(pose: FramePose): void {
    // Without back hair a base is the body's alone: the head's offset and turn would only multiply equal bases.
    const key = this.hasBack
      ? `${pose.bodyX},${pose.bodyY},${pose.headX},${pose.headY},${pose.tilt ?? 0},${pose.nod ?? 0}`
      : `${pose.bodyX},${pose.bodyY}`;
    const base = this.base(key, pose);
    const drawn = this.drawn;
    if (this.frameBase !== key || !drawn) base.copy(this.frame.data);
    else {
      const rowBytes = drawn.width * 4;
      for (let y = drawn.y; y < drawn.y + drawn.height; y++) {
        const from = (y * this.width + drawn.x) * 4;
        base.copy(this.frame.data, from, from, from + rowBytes);
      }
    }
    this.frameBase = key;
  }

  /** Panel + back hair + body for one pose offset (and the back hair's turn). */
  private base(key: string, pose: FramePose): Buffer {
    return this.bases.getOrMake(key, (recycled) => {
      const data = recycled ?? Buffer.allocUnsafe(this.width * this.height * 4);
      if (this.options.withPanel) this.sprites.panel.data.copy(data);
      else data.fill(0);
      const canvas: Picture = { width: this.width, height: this.height, data };
      this.drawBack(canvas, pose.bodyX + pose.headX, pose.bodyY + pose.headY, headPoseOf(pose, false));
      blendOver(canvas, this.bodyLayer, pose.bodyX, pose.bodyY, this.mask);
      return data;
    });
  }

  /**
   * `previous` if it has the region's size (its runs forgotten: its pixels are about to change), else a new picture,
   * not zero-filled: every maker draws all of its pixels (a warp without `only`, a crop, or a copy of the reference).
   */
  protected reuse(previous: Picture | undefined, region: { width: number; height: number }): Picture {
    if (previous && previous.width === region.width && previous.height === region.height) {
      forgetRuns(previous);
      return previous;
    }
    return { width: region.width, height: region.height, data: Buffer.allocUnsafe(region.width * region.height * 4) };
  }

  /** A warped picture kept by key, or drawn by `make` into a recycled (or new) picture of the region's size. */
  protected warpedPicture(key: string, make: (into: Picture) => void): Picture {
    return this.warped.getOrMake(key, (recycled) => {
      const picture = this.reuse(recycled, this.headRegion);
      make(picture);
      return picture;
    });
  }

  /**
   * A pose's warped picture: the warped reference (kept by `turnKey`) with the pixels where `source` differs from the
   * reference warped again from `source` (the whole of it, for the reference itself). `source` is made only when the
   * picture is not kept; `only` (default `changed`) marks the pixels redrawn from it.
   */
  protected fromReference(
    key: string,
    turnKey: string,
    source: () => Picture,
    warpReference: (into: Picture) => void,
    warp: (into: Picture, source: Picture, only: Uint8Array) => void,
    only = this.changed,
  ): Picture {
    if (this.warped.has(key)) return this.warpedPicture(key, () => {});
    const reference = this.references.getOrMake(turnKey, (recycled) => {
      const picture = this.reuse(recycled, this.headRegion);
      warpReference(picture);
      return picture;
    });
    return this.warpedPicture(key, (into) => {
      reference.data.copy(into.data);
      warp(into, source(), only);
    });
  }

  /** The head frame every other is drawn from (closed mouth, eyes open). */
  protected reference(): Picture {
    return this.headFrame('m0')[1];
  }

  /** The head frame of a pose: its mouth frame, or two of them mixed while the mouth changes shape. */
  protected head(pose: FramePose): Picture {
    const eyes = pose.eyesOpen ? 1 : 0;
    const from = this.headFrame(pose.mouth.frame)[eyes];
    const toward = pose.mouth.toward;
    if (!toward || toward.amount <= 0) return from;
    const to = this.headFrame(toward.frame)[eyes];
    if (toward.amount >= 1 || to === from) return to;
    this.mixed ??= { width: from.width, height: from.height, data: Buffer.alloc(from.data.length) };
    mixInto(this.mixed.data, from.data, to.data, toward.amount);
    // Its opaque and blended runs change with every mix.
    forgetRuns(this.mixed);
    return this.mixed;
  }

  /** A mouth frame the look has; one it lacks (an old look without shapes) shows as its half-open level. */
  protected headFrame(frame: string): [Picture, Picture] {
    const heads = this.sprites.heads;
    return heads.get(frame) ?? heads.get(`m${Math.min(2, this.sprites.manifest.mouthLevels - 1)}`) ?? heads.values().next().value!;
  }

  /** The most pictures of the head region's size a pool keeps: `count`, or fewer within `bytes` (at least 8). */
  private maxFor(count: number, bytes: number): number {
    const size = this.headRegion.width * this.headRegion.height * 4;
    return Math.max(8, Math.min(count, Math.floor(bytes / size)));
  }

  /** Nearest-neighbour scaling about the panel's bottom centre (only during zoom transitions). */
  private zoomed(zoom: number): Buffer {
    const out = (this.zoomBuffer ??= Buffer.allocUnsafe(this.frame.data.length));
    out.fill(0);
    if (zoom <= 0.01) return out;
    const { width, height } = this;
    const ax = this.sprites.manifest.anchor.x * this.sprites.scale;
    const ay = this.sprites.manifest.anchor.y * this.sprites.scale;
    const src = this.frame.data;
    for (let y = 0; y < height; y++) {
      const sy = Math.floor(ay + (y + 0.5 - ay) / zoom);
      if (sy < 0 || sy >= height) continue;
      for (let x = 0; x < width; x++) {
        const sx = Math.floor(ax + (x + 0.5 - ax) / zoom);
        if (sx < 0 || sx >= width) continue;
        src.copy(out, (y * width + x) * 4, (sy * width + sx) * 4, (sy * width + sx) * 4 + 4);
      }
    }
    return out;
  }
}

/** The head's part of a pose; a layered head nods by moving (`layered`), so its turned picture does not depend on the nod. */
export const headPoseOf = (pose: FramePose, layered: boolean): HeadPose => ({
  tilt: pose.tilt ?? 0,
  nod: layered ? 0 : (pose.nod ?? 0),
  brow: pose.brow ?? 0,
});

export const mouthKey = (mouth: MouthFrame) =>
  mouth.toward ? `${mouth.frame}>${mouth.toward.frame}@${mouth.toward.amount.toFixed(2)}` : mouth.frame;

/**
 * The pixels of a warp region that may differ between head frames once warped: where any frame differs from the
 * reference (the frames lie at headX, headY of the canvas), widened by `reach` (how far the warp moves a pixel).
 * @internal Exported for its tests.
 */
export function changedPixels(region: WarpRegion, reference: Picture, frames: Picture[], headX: number, headY: number, reach: number): Uint8Array {
  const mask = new Uint8Array(region.width * region.height);
  const r = reference.data;
  for (const frame of frames) {
    const f = frame.data;
    for (let y = 0; y < frame.height; y++) {
      const ry = headY + y - region.y;
      if (ry < 0 || ry >= region.height) continue;
      for (let x = 0; x < frame.width; x++) {
        const rx = headX + x - region.x;
        if (rx < 0 || rx >= region.width) continue;
        const i = (y * frame.width + x) * 4;
        if (f[i] !== r[i] || f[i + 1] !== r[i + 1] || f[i + 2] !== r[i + 2] || f[i + 3] !== r[i + 3]) mask[ry * region.width + rx] = 1;
      }
    }
  }
  return widen(mask, region.width, region.height, reach + 2);
}
