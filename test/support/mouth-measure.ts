/**
 * Measuring a presenter's mouth on rendered frames: how much of the mouth's inside shows (an open mouth) and how
 * wide its opening is (inside and teeth). Used by the viseme tests on every bot kind.
 */
import { runFfmpeg } from '#functions/media/media.ts';
import type { MouthFrame } from '#functions/render/engine/animation.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface MouthMeasure {
  /** Pixels darker than the lips and skin: the mouth's inside. */
  dark: number;
  /** The width of the mouth's opening (inside and teeth) in pixels. */
  width: number;
}

/** Every frame of the video, cropped to `box`, as RGB24. */
export async function croppedFrames(path: string, box: Box): Promise<Buffer[]> {
  const { stdout } = await runFfmpeg(
    ['-i', path, '-vf', `crop=${box.w}:${box.h}:${box.x}:${box.y}`, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { budgetSeconds: 300, captureStdout: true },
  );
  const size = box.w * box.h * 3;
  const frames: Buffer[] = [];
  for (let at = 0; at + size <= stdout.length; at += size) frames.push(stdout.subarray(at, at + size));
  return frames;
}

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * The mouth in one cropped frame: how much of its inside shows (its dark red pixels: hair and shadows are dark but
 * brown or grey), and how wide its opening is (the columns with inside or teeth in them, about the centre). Closed
 * lips show neither; an "oo" a small round opening; an "ee" a long slit, mostly teeth. The same measure holds for a
 * drawing and a photo, whatever the lips' colour against the skin.
 */
export function measureMouth(frame: Buffer, w: number, h: number, darkBelow = 70): MouthMeasure {
  const at = (x: number, y: number) => {
    const i = (y * w + x) * 3;
    return [frame[i]!, frame[i + 1]!, frame[i + 2]!] as const;
  };
  // The inside of a mouth is dark red (hair and shadows are dark but brown or grey: not red, and less blue than green).
  let dark = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = at(x, y);
      if (luma(r, g, b) < darkBelow && r > g + 20 && b >= g - 5) dark++;
    }
  // The opening: the mouth's inside and its teeth (light and grey), column by column; its width is the run of such
  // columns about the centre (gaps of two columns bridged).
  const opening = new Uint8Array(w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = at(x, y);
      const inside = luma(r, g, b) < darkBelow && r > g + 20 && b >= g - 5;
      const tooth = luma(r, g, b) > 165 && Math.max(r, g, b) - Math.min(r, g, b) < 60;
      if (inside || tooth) opening[x] = 1;
    }
  const cx = w >> 1;
  const slack = Math.max(1, Math.round(w / 6));
  let seed = -1;
  for (let d = 0; d <= slack && seed < 0; d++) seed = opening[cx - d] ? cx - d : opening[cx + d] ? cx + d : -1;
  let width = 0;
  if (seed >= 0) {
    let l = seed;
    let r = seed;
    while (l > 0 && (opening[l - 1] || (l > 2 && (opening[l - 2] || opening[l - 3])))) l--;
    while (r < w - 1 && (opening[r + 1] || (r < w - 3 && (opening[r + 2] || opening[r + 3])))) r++;
    width = r - l + 1;
  }
  return { dark, width };
}

/** The frames (at `fps`) whose interval overlaps [start - lead, end]. */
export const framesDuring = (start: number, end: number, fps: number, lead = 0.035): number[] => {
  const frames: number[] = [];
  for (let f = Math.floor((start - lead) * fps); f < Math.ceil(end * fps); f++) if (f >= 0) frames.push(f);
  return frames;
};

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[sorted.length >> 1]! : Number.NaN;
};

/**
 * How open a mouth frame is, 0 (closed) .. 1 (wide open): for measures of the lip sync against the sound.
 */
export function opennessOf(mouth: MouthFrame, levels = 5): number {
  const of = (frame: string) =>
    frame.startsWith('m')
      ? Number(frame.slice(1)) / (levels - 1)
      : (({ r1: 0.25, r2: 0.55, w1: 0.3, w2: 0.6, fv: 0.15 } as Record<string, number>)[frame] ?? 0.5);
  const from = of(mouth.frame);
  return mouth.toward ? from + (of(mouth.toward.frame) - from) * mouth.toward.amount : from;
}

/** Pearson's correlation of two series (over the shorter's length); 0 when either is constant. */
export function pearson(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  let ma = 0,
    mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let cov = 0,
    va = 0,
    vb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    cov += da * db;
    va += da * da;
    vb += db * db;
  }
  return va && vb ? cov / Math.sqrt(va * vb) : 0;
}

/** The largest 4-connected region of a mask: its pixels, and its box. */
function largestRegion(mask: Uint8Array, w: number, h: number): { pixels: number[]; x0: number; x1: number; y0: number; y1: number } {
  const seen = new Uint8Array(w * h);
  let best = { pixels: [] as number[], x0: 0, x1: -1, y0: 0, y1: -1 };
  for (let i = 0; i < w * h; i++) {
    if (!mask[i] || seen[i]) continue;
    const region = { pixels: [] as number[], x0: w, x1: -1, y0: h, y1: -1 };
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const j = stack.pop()!;
      region.pixels.push(j);
      const x = j % w,
        y = (j - x) / w;
      region.x0 = Math.min(region.x0, x);
      region.x1 = Math.max(region.x1, x);
      region.y0 = Math.min(region.y0, y);
      region.y1 = Math.max(region.y1, y);
      for (const k of [x > 0 ? j - 1 : -1, x < w - 1 ? j + 1 : -1, y > 0 ? j - w : -1, y < h - 1 ? j + w : -1]) {
        if (k >= 0 && mask[k] && !seen[k]) {
          seen[k] = 1;
          stack.push(k);
        }
      }
    }
    if (region.pixels.length > best.pixels.length) best = region;
  }
  return best;
}

/**
 * The lips in one cropped frame of a photo bot: the largest region of pixels redder (red minus green) than the
 * frame's own median by more than `margin` (the skin), or dark red (the inside); its width and height in px.
 */
export function lipsOf(frame: Buffer, w: number, h: number, margin = 16): { width: number; height: number } {
  const redness = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) redness[i] = frame[i * 3]! - frame[i * 3 + 1]!;
  const skin = median([...redness]);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const [r, g, b] = [frame[i * 3]!, frame[i * 3 + 1]!, frame[i * 3 + 2]!];
    if (redness[i]! > skin + margin || (luma(r, g, b) < 70 && r > g + 20)) mask[i] = 1;
  }
  const lips = largestRegion(mask, w, h);
  return { width: lips.x1 - lips.x0 + 1, height: lips.y1 - lips.y0 + 1 };
}

/**
 * The opening of a mouth in one cropped frame: its pixels (dark and red: the inside, from the lips' inner surface to
 * the throat, and the tongue) as the largest region; how dark it is at the lips (1-2 px in from its edge) and deep
 * inside (4 px or more in), as mean luma, and the share of its pixels that are light and grey (teeth).
 */
export function openingOf(frame: Buffer, w: number, h: number): { pixels: number; edge: number; deep: number; teeth: number } {
  const inside = new Uint8Array(w * h);
  const tooth = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const [r, g, b] = [frame[i * 3]!, frame[i * 3 + 1]!, frame[i * 3 + 2]!];
    tooth[i] = luma(r, g, b) > 150 && Math.max(r, g, b) - Math.min(r, g, b) < 50 ? 1 : 0;
    // The inside and the teeth in it: teeth join the region, so a band of them does not split it.
    inside[i] = (luma(r, g, b) < 105 && r > g + 25) || tooth[i] ? 1 : 0;
  }
  const region = largestRegion(inside, w, h);
  const member = new Uint8Array(w * h);
  for (const i of region.pixels) member[i] = 1;
  // Distance in from the region's edge (4-connected steps), by breadth-first search from its border pixels.
  const distance = new Int32Array(w * h).fill(-1);
  let queue: number[] = [];
  for (const i of region.pixels) {
    const x = i % w,
      y = (i - x) / w;
    if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !member[i - 1] || !member[i + 1] || !member[i - w] || !member[i + w]) {
      distance[i] = 1;
      queue.push(i);
    }
  }
  for (let d = 2; queue.length; d++) {
    const next: number[] = [];
    for (const i of queue)
      for (const k of [i - 1, i + 1, i - w, i + w])
        if (k >= 0 && k < w * h && member[k] && distance[k]! < 0) {
          distance[k] = d;
          next.push(k);
        }
    queue = next;
  }
  const lumaAt = (i: number) => luma(frame[i * 3]!, frame[i * 3 + 1]!, frame[i * 3 + 2]!);
  const meanOf = (pick: (d: number) => boolean) => {
    const values = region.pixels.filter((i) => !tooth[i] && pick(distance[i]!)).map(lumaAt);
    return values.length ? values.reduce((s, v) => s + v, 0) / values.length : Number.NaN;
  };
  const teeth = region.pixels.filter((i) => tooth[i]).length;
  return { pixels: region.pixels.length, edge: meanOf((d) => d <= 2), deep: meanOf((d) => d >= 4), teeth: teeth / (region.pixels.length || 1) };
}
