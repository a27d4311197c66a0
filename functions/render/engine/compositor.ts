/**
 * Builds the bot's RGBA frames in Node, only the bot's own rectangle (not the whole frame): ffmpeg
 * overlays them on the background. The panel, hair and body for one body/head offset are cached (they
 * change every few frames at most); only the head frame is blended each frame.
 */
import type { FaceGeometry } from '#domain/look';
import type { FramePose, MouthFrame } from './animation.ts';
import { faceOf, type HeadPose, reachOf, type WarpRegion, warpInto, warpRegion, widen } from './head-motion.ts';
import type { BotSprites, Rgba } from './sprites.ts';

/**
 * Where a sprite has pixels to draw, row by row: runs of fully opaque pixels (drawn by a plain copy) and of
 * partly transparent ones (blended pixel by pixel); fully transparent pixels are in neither. Flat
 * [y, x0, x1, opaque] quadruples, found once per sprite: most of a bot's head and body is opaque, so a frame
 * is mostly memory copies and only the anti-aliased edges are blended in JavaScript.
 */
const spriteRuns = new WeakMap<Buffer, Int32Array>();

function runsOf(src: Rgba): Int32Array {
  let runs = spriteRuns.get(src.data);
  if (runs) return runs;
  const out: number[] = [];
  const s = src.data;
  for (let y = 0; y < src.height; y++) {
    let x = 0;
    while (x < src.width) {
      const a = s[(y * src.width + x) * 4 + 3]!;
      if (a === 0) {
        x++;
        continue;
      }
      const opaque = a === 255;
      const start = x;
      while (x < src.width) {
        const b = s[(y * src.width + x) * 4 + 3]!;
        if (b === 0 || (b === 255) !== opaque) break;
        x++;
      }
      out.push(y, start, x, opaque ? 1 : 0);
    }
  }
  runs = Int32Array.from(out);
  spriteRuns.set(src.data, runs);
  return runs;
}

/**
 * A coverage mask and, per row, the columns [full[2y], full[2y+1]) where it is 255 (empty when it is nowhere
 * 255 on that row): there an opaque run of a sprite is copied without looking at the mask.
 */
interface Mask {
  coverage: Uint8Array;
  full: Int32Array;
}

/** @internal Exported for its tests. */
export function maskOf(coverage: Uint8Array, width: number, height: number): Mask {
  const full = new Int32Array(height * 2);
  for (let y = 0; y < height; y++) {
    let x0 = 0;
    while (x0 < width && coverage[y * width + x0] !== 255) x0++;
    let x1 = x0;
    while (x1 < width && coverage[y * width + x1] === 255) x1++;
    full[2 * y] = x0;
    full[2 * y + 1] = x1;
  }
  return { coverage, full };
}

/** Blends pixels [x0, x1) of row `y` of `src` over `dst` at row `dy` (straight alpha), pixel by pixel. */
function blendPixels(dst: Rgba, src: Rgba, y: number, dy: number, x0: number, x1: number, ox: number, mask?: Uint8Array): void {
  const d = dst.data;
  const s = src.data;
  let si = (y * src.width + (x0 - ox)) * 4;
  let di = (dy * dst.width + x0) * 4;
  let mi = dy * dst.width + x0;
  for (let x = x0; x < x1; x++, si += 4, di += 4, mi++) {
    let sa = s[si + 3]!;
    if (sa === 0) continue;
    if (mask) {
      const m = mask[mi]!;
      if (m === 0) continue;
      if (m !== 255) sa = (sa * m + 127) / 255;
    }
    const da = d[di + 3]!;
    if (sa >= 255 || da === 0) {
      d[di] = s[si]!;
      d[di + 1] = s[si + 1]!;
      d[di + 2] = s[si + 2]!;
      d[di + 3] = sa >= 255 ? 255 : Math.round(sa);
      continue;
    }
    const a = sa / 255;
    if (da === 255) {
      d[di] = d[di]! + (s[si]! - d[di]!) * a;
      d[di + 1] = d[di + 1]! + (s[si + 1]! - d[di + 1]!) * a;
      d[di + 2] = d[di + 2]! + (s[si + 2]! - d[di + 2]!) * a;
      continue;
    }
    // General straight-alpha "over".
    const b = (da / 255) * (1 - a);
    const oa = a + b;
    d[di] = (s[si]! * a + d[di]! * b) / oa;
    d[di + 1] = (s[si + 1]! * a + d[di + 1]! * b) / oa;
    d[di + 2] = (s[si + 2]! * a + d[di + 2]! * b) / oa;
    d[di + 3] = oa * 255;
  }
}

/**
 * Blends `src` (straight alpha) over `dst` at (ox, oy), clipped to dst; `mask` (0..255 per dst pixel) optionally
 * limits src. Opaque runs where the mask is full are copied; everything else is blended per pixel.
 * @internal Exported for its tests.
 */
export function blendOver(dst: Rgba, src: Rgba, ox: number, oy: number, mask?: Mask): void {
  const runs = runsOf(src);
  const d = dst.data;
  const s = src.data;
  const coverage = mask?.coverage;
  for (let r = 0; r < runs.length; r += 4) {
    const y = runs[r]!;
    const dy = y + oy;
    if (dy < 0 || dy >= dst.height) continue;
    const x0 = Math.max(0, runs[r + 1]! + ox);
    const x1 = Math.min(dst.width, runs[r + 2]! + ox);
    if (x0 >= x1) continue;
    if (!runs[r + 3]) {
      blendPixels(dst, src, y, dy, x0, x1, ox, coverage);
      continue;
    }
    // Opaque: copied where the mask is full, blended (against the mask) on either side of that.
    const f0 = mask ? Math.min(x1, Math.max(x0, mask.full[2 * dy]!)) : x0;
    const f1 = mask ? Math.max(f0, Math.min(x1, mask.full[2 * dy + 1]!)) : x1;
    if (f0 > x0) blendPixels(dst, src, y, dy, x0, f0, ox, coverage);
    if (f1 > f0) s.copy(d, (dy * dst.width + f0) * 4, (y * src.width + (f0 - ox)) * 4, (y * src.width + (f1 - ox)) * 4);
    if (x1 > f1) blendPixels(dst, src, y, dy, f1, x1, ox, coverage);
  }
}

/**
 * Anti-aliased coverage (0..255) per canvas pixel of where the figure may be drawn. On its card: the card's
 * rounded rectangle, so the figure never leaves it. Without the card the bust is cut straight at the card's
 * bottom: that edge lies on the frame's bottom edge ('flush'), or the lower part of the bust fades out ('fade')
 * so that a presenter higher up in the frame does not end in a hard cut.
 */
function figureMask(sprites: BotSprites, bottom: BotBottom): Mask {
  const { width, height, scale } = sprites;
  const p = sprites.manifest.panel;
  const x0 = p.x * scale,
    y0 = p.y * scale,
    x1 = (p.x + p.width) * scale,
    y1 = (p.y + p.height) * scale;
  const r = p.radius * scale;
  const fadeFrom = y1 - (y1 - y0) * FADE_FRACTION;
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const px = x + 0.5,
        py = y + 0.5;
      let coverage: number;
      if (bottom === 'card') {
        const qx = Math.max(x0 + r - px, 0, px - (x1 - r));
        const qy = Math.max(y0 + r - py, 0, py - (y1 - r));
        const outside = qx > 0 && qy > 0 ? Math.hypot(qx, qy) - r : Math.max(x0 - px, px - x1, y0 - py, py - y1);
        coverage = Math.min(1, Math.max(0, 0.5 - outside));
      } else {
        // No card to stay inside, but the sprite ends at the card's bottom: cut straight there.
        coverage = Math.min(1, Math.max(0, y1 - py + 0.5));
        if (bottom === 'fade' && py > fadeFrom) {
          const t = Math.min(1, (py - fadeFrom) / (y1 - fadeFrom));
          coverage *= 1 - t * t * (3 - 2 * t); // smoothstep down to transparent
        }
      }
      mask[y * width + x] = Math.round(coverage * 255);
    }
  }
  return maskOf(mask, width, height);
}

/**
 * Bases (panel, hair and body at one offset) kept for reuse: 192 (the offsets times the back hair's tilts and nods), or fewer for a big bot so that they stay within
 * 128 MB (a `full` presenter's canvas at 1080p is 4-5 MB).
 */
const MAX_BASES = 192;
const MAX_BASE_BYTES = 128 * 1024 * 1024;
/** Turned heads (or warped upper figures) kept for reuse: 256, or fewer within 96 MB. */
const MAX_WARPED = 256;
const MAX_WARPED_BYTES = 96 * 1024 * 1024;
/** Turned back hair kept for reuse: one per tilt (21 steps in ±2.5°). */
const MAX_BACKS = 24;
/** Warped reference frames (by turn) kept for reuse: 48, or fewer within 64 MB. */
const MAX_REFERENCES = MAX_BACKS * 2;
const MAX_REFERENCE_BYTES = 64 * 1024 * 1024;

/** How the bust ends at the bottom: inside its card, on the frame's bottom edge, or fading out. */
type BotBottom = 'card' | 'flush' | 'fade';
/** Share of the card's height over which a floating bust fades out. */
const FADE_FRACTION = 0.22;

export interface CompositorOptions {
  withPanel: boolean;
  /** @default 'card' with the panel, 'fade' without */
  bottom?: BotBottom;
}

export class BotCompositor {
  readonly width: number;
  readonly height: number;
  private readonly mask: Mask;
  private readonly bases = new Map<string, Buffer>();
  private readonly frame: Rgba;
  private readonly maxBases: number;

  constructor(
    private readonly sprites: BotSprites,
    private readonly options: CompositorOptions,
  ) {
    this.width = sprites.width;
    this.height = sprites.height;
    this.mask = figureMask(sprites, options.bottom ?? (options.withPanel ? 'card' : 'fade'));
    this.frame = { width: this.width, height: this.height, data: Buffer.alloc(this.width * this.height * 4) };
    this.maxBases = Math.max(8, Math.min(MAX_BASES, Math.floor(MAX_BASE_BYTES / this.frame.data.length)));
    this.face = faceOf(sprites.manifest);
    this.layered = sprites.manifest.headMotion !== false;
    if (this.layered) {
      // A head layer turns whole about the pivot (its box widened by how far its corners may move); so does the back hair.
      const { headX, headY } = sprites;
      const { width, height } = sprites.heads.values().next().value![0];
      const browReach = 6 * sprites.scale;
      const m = reachOf(this.face, sprites.scale, { x: headX, y: headY, width, height }, browReach);
      this.headWithin = unionOf([...sprites.heads.values()].flat().map(boundsOf));
      this.headRegion = warpRegion(
        this.face,
        sprites.scale,
        { x: headX - m, y: headY - m, width: width + 2 * m, height: height + 2 * m },
        true,
        true,
      );
      this.changed = changedPixels(this.headRegion, this.reference(), [...sprites.heads.values()].flat(), headX, headY, m);
      const back = boundsOf(sprites.back);
      if (back) {
        const mb = reachOf(this.face, sprites.scale, back, 0);
        this.backRegion = warpRegion(
          this.face,
          sprites.scale,
          { x: back.x - mb, y: back.y - mb, width: back.width + 2 * mb, height: back.height + 2 * mb },
          true,
          false,
        );
        this.backWithin = back;
      }
    } else {
      // One picture: the figure's rows above the neck (and the head frames') are warped; the rows below never move.
      const split = Math.min(
        this.height,
        Math.ceil(Math.max(this.face.pivot.y * sprites.scale + 2, sprites.headY + sprites.heads.values().next().value![0].height)),
      );
      const rows = { x: 0, y: 0, width: this.width, height: split };
      const body = sprites.body;
      this.upperBody = { width: body.width, height: split, data: body.data.subarray(0, body.width * split * 4) };
      const head = unionOf([...sprites.heads.values()].flat().map(boundsOf));
      this.headWithin = unionOf([boundsOf(this.upperBody), head && { ...head, x: head.x + sprites.headX, y: head.y + sprites.headY }]);
      const reach = reachOf(this.face, sprites.scale, rows, 8 * sprites.scale);
      // Only the person moves (the backdrop is the panel's): beyond its box widened by the motion's reach, the warped
      // figure is transparent, so the warp region is that box, not the whole rows of the card.
      this.headRegion = warpRegion(this.face, sprites.scale, clipTo(widenBox(this.headWithin ?? EMPTY, reach), rows), false, true);
      const frames = [...sprites.heads.values()].flat();
      // The frames differ only around the mouth and the eyes, near the pivot: their pixels move by far less than the
      // region's corners (the motion's reach is taken where they are, widened by itself until it holds).
      const differing = differingBox(this.reference(), frames);
      let near = reach;
      if (differing) {
        const box = { ...differing, x: differing.x + sprites.headX, y: differing.y + sprites.headY };
        near = reachOf(this.face, sprites.scale, box, 8 * sprites.scale);
        for (let k = 0; k < 3; k++) near = Math.min(reach, reachOf(this.face, sprites.scale, widenBox(box, near), 8 * sprites.scale));
      }
      this.changed = changedPixels(this.headRegion, this.reference(), frames, sprites.headX, sprites.headY, near);
      this.changedOrBrows = this.changed.map((c, i) => (c || this.headRegion.browBump[i]! > 0 ? 1 : 0));
      this.upperHead = clipTo({ x: sprites.headX, y: sprites.headY, ...sizeOf(this.reference()) }, rows);
      // Within the box, too, only the pixels the motion can bring a pixel of the person to are warped.
      const region = this.headRegion;
      const person = new Uint8Array(region.width * region.height);
      const figure = this.figure(this.reference()).data;
      for (let y = 0; y < region.height; y++) {
        for (let x = 0; x < region.width; x++) if (figure[((region.y + y) * this.width + region.x + x) * 4 + 3]) person[y * region.width + x] = 1;
      }
      for (const frame of frames) {
        for (let y = 0; y < frame.height; y++) {
          const ry = sprites.headY + y - region.y;
          if (ry < 0 || ry >= region.height) continue;
          for (let x = 0; x < frame.width; x++) {
            const rx = sprites.headX + x - region.x;
            if (rx >= 0 && rx < region.width && frame.data[(y * frame.width + x) * 4 + 3]) person[ry * region.width + rx] = 1;
          }
        }
      }
      this.reaches = widen(person, region.width, region.height, reach + 2);
      const lower = Buffer.from(body.data);
      lower.fill(0, 0, body.width * split * 4);
      this.lowerBody = { width: body.width, height: body.height, data: lower };
    }
  }

  private readonly face: FaceGeometry;
  /** Whether the head is a layer of its own (built-in looks) or warped with the figure (one picture). */
  private readonly layered: boolean;
  /** Where the head's motion is drawn: the turned head layer's box, or the figure's rows above the neck. */
  private readonly headRegion!: WarpRegion;
  private readonly backRegion?: WarpRegion;
  /** The boxes outside which the warped sources are transparent (the head frames, or the upper figure; the back hair). */
  private readonly headWithin?: Box;
  private readonly backWithin?: Box;
  /**
   * The region's pixels where a head frame may differ from the reference frame once warped (the mouth and the eyes,
   * widened by the motion's reach): a pose's picture is the reference's, warped once per turn, with only these redrawn.
   */
  private readonly changed!: Uint8Array;
  /** One picture: `changed` and the pixels the brows lift (the brows are drawn as the mouth and eyes are, not by turn). */
  private readonly changedOrBrows?: Uint8Array;
  /** One picture: the region's pixels within the motion's reach of the person (elsewhere the warped figure is clear). */
  private readonly reaches?: Uint8Array;
  /** One picture: the head frames' box on the upper figure (clipped to it). */
  private readonly upperHead?: Box;
  /** The reference frames warped, by turn. */
  private readonly references = new Map<string, Rgba>();

  /** The head frame every other is drawn from (closed mouth, eyes open). */
  private reference(): Rgba {
    return this.headFrame('m0')[1];
  }
  /** One picture: the figure above the first row that never moves, and from it down. */
  private readonly upperBody?: Rgba;
  private readonly lowerBody?: Rgba;
  /** Warped heads (or upper figures) kept for reuse, by pose: a clip's tilts and mouths repeat. */
  private readonly warped = new Map<string, Rgba>();
  private get maxWarped(): number {
    const bytes = this.headRegion.width * this.headRegion.height * 4;
    return Math.max(8, Math.min(MAX_WARPED, Math.floor(MAX_WARPED_BYTES / bytes)));
  }
  private get maxReferences(): number {
    const bytes = this.headRegion.width * this.headRegion.height * 4;
    return Math.max(8, Math.min(MAX_REFERENCES, Math.floor(MAX_REFERENCE_BYTES / bytes)));
  }

  /** Panel + back hair + body for one pose offset (and the back hair's turn). */
  private base(pose: FramePose): Buffer {
    const key = `${pose.bodyX},${pose.bodyY},${pose.headX},${pose.headY},${pose.tilt ?? 0},${pose.nod ?? 0}`;
    const base = this.bases.get(key);
    if (base) {
      // Refresh its place in the LRU order.
      this.bases.delete(key);
      this.bases.set(key, base);
      return base;
    }
    // The least recently used base gives up its buffer: a clip meets hundreds of offsets, and a fresh buffer for
    // each (380 KB at 720p) made the garbage collector run a full collection about every second of a render.
    let data: Buffer;
    if (this.bases.size >= this.maxBases) {
      const oldest = this.bases.keys().next().value!;
      data = this.bases.get(oldest)!;
      this.bases.delete(oldest);
    } else {
      data = Buffer.allocUnsafe(this.width * this.height * 4);
    }
    if (this.options.withPanel) this.sprites.panel.data.copy(data);
    else data.fill(0);
    const canvas: Rgba = { width: this.width, height: this.height, data };
    const headDx = pose.bodyX + pose.headX;
    const headDy = pose.bodyY + pose.headY;
    const turn = headPoseOf(pose, false);
    if (this.backRegion && turn.tilt) {
      const region = this.backRegion;
      blendOver(canvas, this.turnedBack(turn.tilt), headDx + region.x, headDy + region.y + turn.nod, this.mask);
    } else blendOver(canvas, this.sprites.back, headDx, headDy + turn.nod, this.mask);
    blendOver(canvas, this.layered ? this.sprites.body : this.lowerBody!, pose.bodyX, pose.bodyY, this.mask);
    this.bases.set(key, data);
    return data;
  }

  /** The back hair turned, by tilt (the nod moves it whole): a clip meets a dozen, and bases are redrawn far more often. */
  private readonly backs = new Map<string, Rgba>();

  private turnedBack(tilt: number): Rgba {
    const key = `${tilt}`;
    let back = this.backs.get(key);
    if (back) {
      this.backs.delete(key);
      this.backs.set(key, back);
      return back;
    }
    const region = this.backRegion!;
    let previous: Rgba | undefined;
    if (this.backs.size >= MAX_BACKS) {
      const oldest = this.backs.keys().next().value!;
      previous = this.backs.get(oldest);
      this.backs.delete(oldest);
    }
    back = this.reuse(previous, region);
    warpInto(back.data, this.sprites.back, 0, 0, region, this.face, this.sprites.scale, { tilt, nod: 0, brow: 0 }, true, this.backWithin!);
    this.backs.set(key, back);
    return back;
  }

  /** `previous` if it has the region's size (its runs forgotten: its pixels are about to change), else a new picture. */
  private reuse(previous: Rgba | undefined, region: { width: number; height: number }): Rgba {
    if (previous && previous.width === region.width && previous.height === region.height) {
      spriteRuns.delete(previous.data);
      return previous;
    }
    return { width: region.width, height: region.height, data: Buffer.alloc(region.width * region.height * 4) };
  }

  private last?: { key: string; frame: Buffer };

  /** The RGBA frame for a pose; the returned buffer is reused by the next call. */
  render(given: FramePose, zoom = 1): Buffer {
    const pose = this.layered ? given : { ...given, headX: 0, headY: 0 };
    // Four frames in ten repeat the one before (the mouth holds, the sway rounds to the same pixel): reused as is.
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${pose.bodyX},${pose.bodyY},${pose.headX},${pose.headY},${pose.tilt ?? 0},${pose.nod ?? 0},${pose.brow ?? 0},${zoom}`;
    if (this.last?.key === key) return this.last.frame;
    const frame = this.draw(pose, zoom);
    this.last = { key, frame };
    return frame;
  }

  private draw(pose: FramePose, zoom: number): Buffer {
    this.base(pose).copy(this.frame.data);
    if (this.layered) {
      const { picture, x, y } = this.turnedHead(pose);
      blendOver(this.frame, picture, x + pose.bodyX + pose.headX, y + pose.bodyY + pose.headY + (pose.nod ?? 0));
    } else {
      const region = this.headRegion;
      blendOver(this.frame, this.upperFigure(pose), pose.bodyX + region.x, pose.bodyY + region.y, this.mask);
    }
    return zoom >= 0.999 ? this.frame.data : this.zoomed(zoom);
  }

  /** A warped picture kept by key, or drawn by `make` into a recycled (or new) picture of the region's size. */
  private warpedPicture(key: string, make: (into: Rgba) => void): Rgba {
    const kept = this.warped.get(key);
    if (kept) {
      this.warped.delete(key);
      this.warped.set(key, kept);
      return kept;
    }
    let picture: Rgba | undefined;
    if (this.warped.size >= this.maxWarped) {
      const oldest = this.warped.keys().next().value!;
      picture = this.warped.get(oldest);
      this.warped.delete(oldest);
    }
    picture = this.reuse(picture, this.headRegion);
    make(picture);
    this.warped.set(key, picture);
    return picture;
  }

  /** Layered looks: the head frame turned about the pivot with its brows lifted, and where it goes (nod not included). */
  private turnedHead(pose: FramePose): { picture: Rgba; x: number; y: number } {
    const turn = headPoseOf(pose, true);
    if (!turn.tilt && !turn.brow) return { picture: this.head(pose), x: this.sprites.headX, y: this.sprites.headY };
    const region = this.headRegion;
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${turn.tilt},${turn.brow}`;
    const warp = (into: Rgba, source: Rgba, only?: Uint8Array) =>
      warpInto(
        into.data,
        source,
        this.sprites.headX,
        this.sprites.headY,
        region,
        this.face,
        this.sprites.scale,
        turn,
        true,
        this.headWithin ?? EMPTY,
        only,
      );
    return {
      picture: this.fromReference(
        key,
        `${turn.tilt},${turn.brow}`,
        () => this.head(pose),
        (into) => warp(into, this.reference()),
        warp,
      ),
      x: region.x,
      y: region.y,
    };
  }

  /**
   * A pose's warped picture: the warped reference (kept by `turnKey`) with the pixels where `source` differs from the
   * reference warped again from `source` (the whole of it, for the reference itself). `source` is made only when the
   * picture is not kept; `only` (default `changed`) marks the pixels redrawn from it.
   */
  private fromReference(
    key: string,
    turnKey: string,
    source: () => Rgba,
    warpReference: (into: Rgba) => void,
    warp: (into: Rgba, source: Rgba, only: Uint8Array) => void,
    only = this.changed,
  ): Rgba {
    if (this.warped.has(key)) return this.warpedPicture(key, () => {});
    let reference = this.references.get(turnKey);
    if (reference) {
      this.references.delete(turnKey);
      this.references.set(turnKey, reference);
    } else {
      let previous: Rgba | undefined;
      if (this.references.size >= this.maxReferences) {
        const oldest = this.references.keys().next().value!;
        previous = this.references.get(oldest);
        this.references.delete(oldest);
      }
      reference = this.reuse(previous, this.headRegion);
      warpReference(reference);
      this.references.set(turnKey, reference);
    }
    const ready = reference;
    return this.warpedPicture(key, (into) => {
      ready.data.copy(into.data);
      warp(into, source(), only);
    });
  }

  private upper?: Rgba;
  /** Whether `upper` holds the reference head frame (else another one, over the same upper body). */
  private upperIsReference = false;

  /**
   * The upper body with a head frame over it (the warp's source). Made once with the reference frame; for another
   * frame only the head's box is put back from the upper body and the frame blended there.
   */
  private figure(head: Rgba): Rgba {
    const body = this.upperBody!;
    let upper = this.upper;
    if (!upper) {
      upper = this.upper = { width: body.width, height: body.height, data: Buffer.from(body.data) };
      blendOver(upper, this.reference(), this.sprites.headX, this.sprites.headY);
      this.upperIsReference = true;
    }
    const isReference = head === this.reference();
    if (isReference && this.upperIsReference) return upper;
    const box = this.upperHead!;
    for (let y = box.y; y < box.y + box.height; y++) {
      const from = (y * body.width + box.x) * 4;
      body.data.copy(upper.data, from, from, from + box.width * 4);
    }
    blendOver(upper, head, this.sprites.headX, this.sprites.headY);
    this.upperIsReference = isReference;
    return upper;
  }

  /** One-picture looks: the figure above the neck with the pose's head frame, turned, nodded and its brows lifted. */
  private upperFigure(pose: FramePose): Rgba {
    const turn = headPoseOf(pose, false);
    const key = `${mouthKey(pose.mouth)},${pose.eyesOpen},${turn.tilt},${turn.nod},${turn.brow}`;
    const region = this.headRegion;
    if (!turn.tilt && !turn.nod && !turn.brow) return this.warpedPicture(key, (into) => cropInto(into, this.figure(this.head(pose)), region));
    const warp = (into: Rgba, source: Rgba, only: Uint8Array | undefined, brow: number) =>
      warpInto(into.data, source, 0, 0, region, this.face, this.sprites.scale, { ...turn, brow }, false, this.headWithin ?? EMPTY, only);
    // The turn's reference has the brows at rest; a lifted brow is redrawn with the mouth and the eyes.
    return this.fromReference(
      key,
      `${turn.tilt},${turn.nod}`,
      () => this.head(pose),
      (into) => {
        into.data.fill(0);
        warp(into, this.figure(this.reference()), this.reaches, 0);
      },
      (into, source, only) => warp(into, this.figure(source), only, turn.brow),
      turn.brow ? this.changedOrBrows : this.changed,
    );
  }

  private mixed?: Rgba;

  /** The head frame of a pose: its mouth frame, or two of them mixed while the mouth changes shape. */
  private head(pose: FramePose): Rgba {
    const eyes = pose.eyesOpen ? 1 : 0;
    const from = this.headFrame(pose.mouth.frame)[eyes];
    const toward = pose.mouth.toward;
    if (!toward || toward.amount <= 0) return from;
    const to = this.headFrame(toward.frame)[eyes];
    if (toward.amount >= 1 || to === from) return to;
    this.mixed ??= { width: from.width, height: from.height, data: Buffer.alloc(from.data.length) };
    mixInto(this.mixed.data, from.data, to.data, toward.amount);
    // Its opaque and blended runs change with every mix.
    spriteRuns.delete(this.mixed.data);
    return this.mixed;
  }

  /** A mouth frame the look has; one it lacks (an old look without shapes) shows as its half-open level. */
  private headFrame(frame: string): [Rgba, Rgba] {
    const heads = this.sprites.heads;
    return heads.get(frame) ?? heads.get(`m${Math.min(2, this.sprites.manifest.mouthLevels - 1)}`) ?? heads.values().next().value!;
  }

  private zoomBuffer?: Buffer;

  /** Nearest-neighbour scaling about the panel's bottom centre (only during zoom transitions). */
  private zoomed(zoom: number): Buffer {
    const out = (this.zoomBuffer ??= Buffer.alloc(this.frame.data.length));
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
const headPoseOf = (pose: FramePose, layered: boolean): HeadPose => ({
  tilt: pose.tilt ?? 0,
  nod: layered ? 0 : (pose.nod ?? 0),
  brow: pose.brow ?? 0,
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const EMPTY: Box = { x: 0, y: 0, width: 0, height: 0 };

/** The box (in the frames' px) of the pixels where any frame differs from the reference (undefined when none does). */
function differingBox(reference: Rgba, frames: Rgba[]): Box | undefined {
  const r = reference.data;
  const boxes = frames.map((frame) => {
    const f = frame.data;
    let x0 = frame.width,
      y0 = frame.height,
      x1 = -1,
      y1 = -1;
    for (let y = 0; y < frame.height; y++) {
      for (let x = 0; x < frame.width; x++) {
        const i = (y * frame.width + x) * 4;
        if (f[i] === r[i] && f[i + 1] === r[i + 1] && f[i + 2] === r[i + 2] && f[i + 3] === r[i + 3]) continue;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
    return x1 < 0 ? undefined : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
  });
  return unionOf(boxes);
}

const sizeOf = (picture: Rgba) => ({ width: picture.width, height: picture.height });

/** `box` grown by `by` px on every side. */
const widenBox = (box: Box, by: number): Box => ({ x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by });

/** The part of `box` inside `within` (at least 1x1, so a region always has a pixel). */
function clipTo(box: Box, within: Box): Box {
  const x0 = Math.max(box.x, within.x),
    y0 = Math.max(box.y, within.y);
  const x1 = Math.min(box.x + box.width, within.x + within.width),
    y1 = Math.min(box.y + box.height, within.y + within.height);
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** `into` (the region's size) = the region's part of `src` (whose pixel (0,0) is the canvas's). */
function cropInto(into: Rgba, src: Rgba, region: Box): void {
  for (let y = 0; y < region.height; y++) {
    const from = ((region.y + y) * src.width + region.x) * 4;
    src.data.copy(into.data, y * region.width * 4, from, from + region.width * 4);
  }
}

/** The smallest box around the given ones (undefined when there are none). */
function unionOf(boxes: (Box | undefined)[]): Box | undefined {
  const some = boxes.filter((b): b is Box => b !== undefined);
  if (!some.length) return undefined;
  const x = Math.min(...some.map((b) => b.x)),
    y = Math.min(...some.map((b) => b.y));
  return { x, y, width: Math.max(...some.map((b) => b.x + b.width)) - x, height: Math.max(...some.map((b) => b.y + b.height)) - y };
}

/** The bounding box of a picture's non-transparent pixels (undefined when it has none). */
function boundsOf(picture: Rgba): Box | undefined {
  let x0 = picture.width,
    y0 = picture.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < picture.height; y++) {
    for (let x = 0; x < picture.width; x++) {
      if (!picture.data[(y * picture.width + x) * 4 + 3]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

const mouthKey = (mouth: MouthFrame) => (mouth.toward ? `${mouth.frame}>${mouth.toward.frame}@${mouth.toward.amount.toFixed(2)}` : mouth.frame);

/**
 * `out` = `a` blended toward `b` by `t` (straight RGBA of the same size), with premultiplied alpha, so a pixel
 * that is transparent in one frame takes the other's colour rather than going dark.
 */
function mixInto(out: Buffer, a: Buffer, b: Buffer, t: number): void {
  const s = 1 - t;
  for (let i = 0; i < out.length; i += 4) {
    const aa = a[i + 3]! * s;
    const ba = b[i + 3]! * t;
    const alpha = aa + ba;
    if (alpha < 0.5) {
      out[i + 3] = 0;
      continue;
    }
    out[i] = (a[i]! * aa + b[i]! * ba) / alpha;
    out[i + 1] = (a[i + 1]! * aa + b[i + 1]! * ba) / alpha;
    out[i + 2] = (a[i + 2]! * aa + b[i + 2]! * ba) / alpha;
    out[i + 3] = alpha;
  }
}

/**
 * The pixels of a warp region that may differ between head frames once warped: where any frame differs from the
 * reference (the frames lie at headX, headY of the canvas), widened by `reach` (how far the warp moves a pixel).
 * @internal Exported for its tests.
 */
export function changedPixels(region: WarpRegion, reference: Rgba, frames: Rgba[], headX: number, headY: number, reach: number): Uint8Array {
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
