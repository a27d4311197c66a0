/**
 * Measuring a presenter's mouth on rendered frames: how much of the mouth's inside shows (dark pixels: an open
 * mouth) and how wide the mouth is (the run of lip, teeth and inside pixels across its middle, against the skin
 * around it). Used by the viseme tests on every bot kind.
 */
import { runFfmpeg } from '#functions/media/media.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface MouthMeasure {
  /** Pixels darker than the lips and skin: the mouth's inside. */
  dark: number;
  /** The mouth's width in pixels. */
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
 * The mouth in one cropped frame: the inside is its dark red pixels; the skin is the median colour of the crop's left and right edges; a pixel more
 * than `contrast` from it is mouth (lips, teeth, inside); the width is the longest run of mouth pixels on a row
 * through the middle third of the crop that covers its centre column (give or take an eighth of the width).
 */
export function measureMouth(frame: Buffer, w: number, h: number, contrast = 45, darkBelow = 70): MouthMeasure {
  const at = (x: number, y: number) => {
    const i = (y * w + x) * 3;
    return [frame[i]!, frame[i + 1]!, frame[i + 2]!] as const;
  };
  const edge: (readonly [number, number, number])[] = [];
  for (let y = Math.floor(h * 0.2); y < Math.ceil(h * 0.8); y++) edge.push(at(0, y), at(1, y), at(w - 1, y), at(w - 2, y));
  const median = (k: 0 | 1 | 2) => edge.map((p) => p[k]).sort((a, b) => a - b)[edge.length >> 1]!;
  const skin = [median(0), median(1), median(2)];
  const isMouth = (x: number, y: number) => {
    const [r, g, b] = at(x, y);
    return Math.hypot(r - skin[0]!, g - skin[1]!, b - skin[2]!) > contrast;
  };
  // The inside of a mouth is dark red (hair and shadows are dark but brown or grey: not red, and less blue than green).
  let dark = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const [r, g, b] = at(x, y);
      if (luma(r, g, b) < darkBelow && r > g + 20 && b >= g - 5) dark++;
    }
  let width = 0;
  const cx = w >> 1;
  const slack = Math.max(1, Math.round(w / 8));
  for (let y = Math.floor(h / 3); y < Math.ceil((2 * h) / 3); y++) {
    let x = cx - slack;
    while (x <= cx + slack && !isMouth(x, y)) x++;
    if (x > cx + slack) continue;
    let left = x;
    let right = x;
    while (left > 0 && isMouth(left - 1, y)) left--;
    while (right < w - 1 && isMouth(right + 1, y)) right++;
    width = Math.max(width, right - left + 1);
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
