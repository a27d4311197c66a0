/**
 * The person cut out of a video bot's loops (docs/video-bots.md, "Removing the background"): ISNet (./matting.ts,
 * the photo bots' matte, about 3 s a frame on this CPU) on key frames of each loop, and every frame between two keys
 * the two keys' mattes carried onto it by the head's motion (the similarity of the stable landmarks, the same that
 * brings a face into face space) and mixed by how near each key is. Made once at preparation, with the loop's frames
 * in the person's own colours across the matte's edge (./edge-colours.ts), so a render that removes the background
 * only reads those frames and lays the matte on as their alpha.
 */
import { applySimilarity, invertSimilarity, type Point, type Similarity, toReference } from '#domain/face-space';
import { type FootageLoop, loopFrameSources } from '#domain/look';
import { readFootage, writeCutout, writeMatte } from '#media/footage-media';
import { matte } from '../matting.ts';
import { EdgeColours } from './edge-colours.ts';

/** Frames between two key frames at most (a second): ISNet costs about 10 CPU seconds a frame here. */
const KEY_EVERY = 30;
/** The most key frames of one loop (ISNet's seconds bound the preparation). */
const MOST_KEYS = 8;
/**
 * The longest loop matted, frames (7 s at 30 fps): its keys are still KEY_EVERY apart, and a loop's matte costs at
 * most MOST_KEYS ISNet runs and this many frames carried, whatever the recording's length (the loop search keeps
 * to it).
 */
export const LONGEST_MATTED_LOOP = (MOST_KEYS - 1) * KEY_EVERY + 1;
/** A key's alpha (0-255) at most where its pixel counts as backdrop (and as sure backdrop in a carried matte). */
const BACKDROP_ALPHA = 6;
/** Where two keys' carried mattes differ by more than this (0-255), the frame's own pixels decide. */
const UNSURE_GAP = 24;
/** The difference key's ramp: a pixel this far from the backdrop's colour (RGB summed) is backdrop, that far person. */
const KEY_LOW = 24;
const KEY_HIGH = 72;
/** A backdrop pixel whose colour spread over the keys is more than this (standard deviations summed over RGB) is not steady. */
const STEADY_BACKDROP = 12;
/** A frame whose sure backdrop is on average this far from the key frames' (RGB summed): the camera moved; no key. */
const MOVED_CAMERA = 18;
/**
 * How much of the frame before's edge (as written) a frame's edge keeps: the carried mattes of two keys a second
 * apart disagree where the head turns against the shoulders, and an edge decided afresh each frame shimmers.
 */
const KEEP_EDGE = 0.75;
/** The loop's last frames steadied before its first is written: what is left of the edge before them is KEEP_EDGE ** this. */
const WARM_UP_FRAMES = 45;

interface Footage {
  width: number;
  height: number;
  fps: number;
  reference: readonly Point[];
}

/**
 * The key frames of a loop of `length` frames: the first, the last, and evenly between them at most KEY_EVERY
 * apart (MOST_KEYS at most on a loop of LONGEST_MATTED_LOOP frames).
 * @internal Exported for its tests.
 */
export function keyFramesOf(length: number): number[] {
  if (length <= 1) return [0];
  const gaps = Math.ceil((length - 1) / KEY_EVERY);
  return [...new Set(Array.from({ length: gaps + 1 }, (_, k) => Math.round((k * (length - 1)) / gaps)))];
}

/** The landmarks of frame `n` of the loop: its recording frame's, mixed in the wrap's crossfade as its pixels are. */
function loopLandmarks(loop: FootageLoop, track: readonly Point[][], n: number): Point[] {
  const { source, mixed, amount } = loopFrameSources(loop, n);
  if (mixed === undefined) return track[source]!;
  return track[source]!.map((p, j) => ({ x: p.x + (track[mixed]![j]!.x - p.x) * amount, y: p.y + (track[mixed]![j]!.y - p.y) * amount }));
}

/** f after g. */
const compose = (f: Similarity, g: Similarity): Similarity => {
  const o = applySimilarity(f, { x: g.tx, y: g.ty });
  return { a: f.a * g.a - f.b * g.b, b: f.a * g.b + f.b * g.a, tx: o.x, ty: o.y };
};

/**
 * `alpha` (a key's matte) carried by `motion` (a pixel of the frame drawn to where it was in the key's frame) into
 * `into`, bilinear; outside the key's frame counts as the nearest edge pixel.
 */
function carry(into: Float32Array, alpha: Uint8Array, motion: Similarity, width: number, height: number) {
  for (let y = 0; y < height; y++) {
    let qx = -motion.b * y + motion.tx;
    let qy = motion.a * y + motion.ty;
    for (let x = 0, o = y * width; x < width; x++, o++, qx += motion.a, qy += motion.b) {
      const cx = Math.min(width - 1.001, Math.max(0, qx));
      const cy = Math.min(height - 1.001, Math.max(0, qy));
      const x0 = cx | 0;
      const y0 = cy | 0;
      const fx = cx - x0;
      const fy = cy - y0;
      const p = y0 * width + x0;
      const top = alpha[p]! + (alpha[p + 1]! - alpha[p]!) * fx;
      const bottom = alpha[p + width]! + (alpha[p + width + 1]! - alpha[p + width]!) * fx;
      into[o] = top + (bottom - top) * fy;
    }
  }
}

/** ISNet's matte of each key frame of the loop file, 0-255 a pixel. */
async function keyMattes(path: string, footage: Footage, keys: readonly number[]): Promise<{ mattes: Map<number, Uint8Array>; plate: Backdrop }> {
  // The key frames are read first (a few MB each) and the decoder let go: ISNet's seconds are not the decoder's budget.
  const wanted = new Set(keys);
  const last = keys[keys.length - 1]!;
  const reader = readFootage(path, footage, { loop: false, seconds: (last + 1) / footage.fps });
  const frames = new Map<number, Buffer>();
  try {
    for (let n = 0; n <= last; n++) {
      const rgba = await reader.next();
      if (!rgba) throw new Error(`the loop ${path} ended at frame ${n}, before its key frame ${last}`);
      if (wanted.has(n)) frames.set(n, Buffer.from(rgba));
    }
  } finally {
    reader.close();
  }
  const mattes = new Map<number, Uint8Array>();
  const plate = new Backdrop(footage.width * footage.height);
  for (const [n, rgba] of frames) {
    const alpha = Uint8Array.from(await matte(rgba, footage.width, footage.height), (v) => Math.round(v * 255));
    mattes.set(n, alpha);
    plate.add(rgba, alpha);
    frames.delete(n);
  }
  return { mattes, plate };
}

/**
 * The backdrop behind the person, from the key frames' pixels that ISNet called backdrop (a camera that does not
 * move sees the same wall there on every frame). Where a frame's carried edge is unsure, its own pixels against
 * this backdrop decide (a difference key), so the edge follows the body where the head's motion does not carry it.
 */
class Backdrop {
  private readonly sums: Float32Array;
  private readonly squares: Float32Array;
  private readonly counts: Uint16Array;

  constructor(pixels: number) {
    this.sums = new Float32Array(pixels * 3);
    this.squares = new Float32Array(pixels * 3);
    this.counts = new Uint16Array(pixels);
  }

  add(rgba: Buffer, alpha: Uint8Array) {
    for (let p = 0; p < alpha.length; p++) {
      if (alpha[p]! > BACKDROP_ALPHA) continue;
      for (let c = 0; c < 3; c++) {
        const v = rgba[p * 4 + c]!;
        this.sums[p * 3 + c] = this.sums[p * 3 + c]! + v;
        this.squares[p * 3 + c] = this.squares[p * 3 + c]! + v * v;
      }
      this.counts[p] = this.counts[p]! + 1;
    }
  }

  /**
   * How far the pixel's colour is from the backdrop's (summed over RGB), or -1 where fewer than two keys saw the
   * backdrop or it changed between them (a moving camera's or a busy backdrop's pixel: no key can be trusted there).
   */
  distance(rgba: Buffer, p: number): number {
    const n = this.counts[p]!;
    if (n < 2) return -1;
    let d = 0;
    let spread = 0;
    for (let c = 0; c < 3; c++) {
      const mean = this.sums[p * 3 + c]! / n;
      spread += Math.sqrt(Math.max(0, this.squares[p * 3 + c]! / n - mean * mean));
      d += Math.abs(rgba[p * 4 + c]! - mean);
    }
    return spread > STEADY_BACKDROP ? -1 : d;
  }
}

/**
 * Refines `alpha` (a carried matte) on its unsure pixels (`unsure` set) by the frame's distance from the backdrop;
 * not at all when the frame's sure backdrop no longer matches it (the camera moved).
 */
function refine(alpha: Buffer, unsure: Uint8Array, rgba: Buffer, plate: Backdrop) {
  let off = 0;
  let seen = 0;
  for (let p = 0; p < alpha.length; p += 7) {
    if (alpha[p]! > BACKDROP_ALPHA || unsure[p]) continue;
    const d = plate.distance(rgba, p);
    if (d < 0) continue;
    off += d;
    seen++;
  }
  if (!seen || off / seen > MOVED_CAMERA) return;
  for (let p = 0; p < alpha.length; p++) {
    if (!unsure[p]) continue;
    const d = plate.distance(rgba, p);
    if (d < 0) continue;
    const t = Math.min(1, Math.max(0, (d - KEY_LOW) / (KEY_HIGH - KEY_LOW)));
    alpha[p] = Math.round(255 * t * t * (3 - 2 * t));
  }
}

/**
 * Writes the matte of the loop `loop` (its file in `dir`'s `loopPath`) to `mattePath`: one grey frame for each of
 * the loop's frames; then cutoutLoop. Answers how many key frames ISNet ran on.
 */
export async function matteLoop(
  loop: FootageLoop,
  loopPath: string,
  { mattePath, cutoutPath }: { mattePath: string; cutoutPath: string },
  footage: Footage,
  track: readonly Point[][],
): Promise<number> {
  const length = loop.to - loop.from;
  if (length > LONGEST_MATTED_LOOP) throw new Error(`a loop of ${length} frames is longer than a matte covers (${LONGEST_MATTED_LOOP})`);
  const keys = keyFramesOf(length);
  const { mattes, plate } = await keyMattes(loopPath, footage, keys);
  const rawMatte = carrier(loop, footage, track, keys, mattes, plate);
  const steady = new EdgeSteadier(footage.width * footage.height);
  const decode = () => readFootage(loopPath, footage, { loop: false, seconds: length / footage.fps });
  const next = async (reader: ReturnType<typeof decode>, n: number) => {
    const rgba = await reader.next();
    if (!rgba) throw new Error(`the loop ${loopPath} ended at frame ${n}`);
    return rgba;
  };
  // The loop is a circle: its last frames are steadied first (not written), so that its first frame's edge follows
  // its last frame's as any frame's follows the one before, and the wrap is as steady as any other step.
  const warmFrom = Math.max(0, length - WARM_UP_FRAMES);
  const tail = decode();
  try {
    for (let n = 0; n < length; n++) {
      const rgba = await next(tail, n);
      if (n >= warmFrom) steady.next(rawMatte(n, rgba), n === warmFrom);
    }
  } finally {
    tail.close();
  }
  const pixels = decode();
  try {
    await writeMatte(mattePath, footage, footage.fps, { count: length, frame: async (n) => steady.next(rawMatte(n, await next(pixels, n)), false) });
  } finally {
    pixels.close();
  }
  await cutoutLoop(loopPath, mattePath, cutoutPath, footage, length);
  return keys.length;
}

/**
 * Writes the loop's frames to `cutoutPath` with the person's own colours across the edge of the matte at
 * `mattePath` (as written, so as the render will read it): what a render that removes the background shows.
 */
async function cutoutLoop(loopPath: string, mattePath: string, cutoutPath: string, footage: Footage, length: number): Promise<void> {
  const seconds = length / footage.fps;
  const pixels = readFootage(loopPath, footage, { loop: false, seconds });
  const alphas = readFootage(mattePath, footage, { loop: false, seconds, grey: true });
  const colours = new EdgeColours(footage.width, footage.height);
  try {
    await writeCutout(cutoutPath, footage, footage.fps, {
      count: length,
      frame: async (n) => {
        const [rgba, alpha] = await Promise.all([pixels.next(), alphas.next()]);
        if (!rgba || !alpha) throw new Error(`the loop ${loopPath} or its matte ended at frame ${n}`);
        return colours.of(rgba, alpha);
      },
    });
  } finally {
    pixels.close();
    alphas.close();
  }
}

/**
 * The matte of frame `n` of the loop before it is steadied: a key's own, or the two keys' around it carried onto the
 * frame by the head's motion and mixed, refined by the frame's pixels where they disagree. Answers a buffer it
 * reuses.
 */
function carrier(
  loop: FootageLoop,
  footage: Footage,
  track: readonly Point[][],
  keys: readonly number[],
  mattes: ReadonlyMap<number, Uint8Array>,
  plate: Backdrop,
) {
  const { width, height } = footage;
  const toFace = (n: number) => toReference(loopLandmarks(loop, track, n), footage.reference);
  const faces = new Map(keys.map((k) => [k, toFace(k)]));
  const first = new Float32Array(width * height);
  const second = new Float32Array(width * height);
  const unsure = new Uint8Array(width * height);
  const out = Buffer.alloc(width * height);
  return (n: number, rgba: Buffer): Buffer => {
    const exact = mattes.get(n);
    if (exact) return Buffer.from(exact.buffer, exact.byteOffset, exact.length);
    const next = keys.findIndex((k) => k > n);
    const [a, b] = [keys[next - 1]!, keys[next]!];
    const here = toFace(n);
    const share = (n - a) / (b - a);
    // A pixel of this frame, into face space by this frame's similarity, out of it by the key's.
    carry(first, mattes.get(a)!, compose(invertSimilarity(faces.get(a)!), here), width, height);
    carry(second, mattes.get(b)!, compose(invertSimilarity(faces.get(b)!), here), width, height);
    for (let p = 0; p < out.length; p++) {
      const mixed = first[p]! + (second[p]! - first[p]!) * share;
      out[p] = Math.round(mixed);
      // Unsure: the two keys disagree here, or both call it edge.
      unsure[p] = Math.abs(first[p]! - second[p]!) > UNSURE_GAP || (mixed > BACKDROP_ALPHA && mixed < 255 - BACKDROP_ALPHA) ? 1 : 0;
    }
    refine(out, unsure, rgba, plate);
    return out;
  };
}

/**
 * The edge mixed with the frame before's as written (KEEP_EDGE of it): a pixel the key decides afresh on each frame
 * would shimmer. Away from the edge (sure person, sure backdrop) a frame's own matte is written as it is.
 */
class EdgeSteadier {
  private readonly previous: Buffer;

  constructor(pixels: number) {
    this.previous = Buffer.alloc(pixels);
  }

  /** The frame's matte as written (a buffer it reuses); `first` starts afresh from `alpha`. */
  next(alpha: Buffer, first: boolean): Buffer {
    const previous = this.previous;
    if (first) previous.set(alpha);
    for (let p = 0; p < alpha.length; p++) {
      const a = alpha[p]!;
      const b = previous[p]!;
      if ((a > BACKDROP_ALPHA && a < 255 - BACKDROP_ALPHA) || (b > BACKDROP_ALPHA && b < 255 - BACKDROP_ALPHA))
        previous[p] = Math.round(a + (b - a) * KEEP_EDGE);
      else previous[p] = a;
    }
    return previous;
  }
}
