/**
 * What a frame's mouth is doing, from its landmarks in face space (eye distances): how open, how wide, and which
 * of the lip-sync's mouth frames it is (`m0`..`m4`, `r1 r2`, `w1 w2`, `fv`: functions/domain/look.ts SHAPE_FRAMES).
 * The widths are the person's own: a rounded mouth is narrower than their resting one, a spread one wider.
 */
import { eyeDistance, type Point } from '#domain/face-space';

export interface MouthMeasure {
  /** The gap between the inner lips, eye distances. */
  opening: number;
  /** Corner to corner (outer lips), eye distances. */
  width: number;
}

const gap = (l: readonly Point[], a: number, b: number) => Math.hypot(l[a]!.x - l[b]!.x, l[a]!.y - l[b]!.y);

export function measureMouth(landmarks: readonly Point[]): MouthMeasure {
  const eyes = eyeDistance(landmarks);
  const opening = (gap(landmarks, 61, 67) + gap(landmarks, 62, 66) + gap(landmarks, 63, 65)) / 3;
  return { opening: opening / eyes, width: gap(landmarks, 48, 54) / eyes };
}

/** Below this opening (eye distances) the lips touch: a closed mouth. */
export const CLOSED_OPENING = 0.035;

/** The person's own scale of mouths: their resting width, and how far their speaking mouth opens. */
export interface MouthRange {
  restWidth: number;
  /** Openings at the 25th, 50th, 75th and 95th percentile of the open frames. */
  openings: [number, number, number, number];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? 0;

export function mouthRange(measures: readonly MouthMeasure[]): MouthRange {
  const closed = measures.filter((m) => m.opening < CLOSED_OPENING).map((m) => m.width);
  const widths = (closed.length >= 5 ? closed : measures.map((m) => m.width)).sort((a, b) => a - b);
  const open = measures
    .filter((m) => m.opening >= CLOSED_OPENING)
    .map((m) => m.opening)
    .sort((a, b) => a - b);
  const o = (q: number) => Math.max(CLOSED_OPENING * (1 + q), quantile(open, q));
  return { restWidth: quantile(widths, 0.5), openings: [o(0.25), o(0.5), o(0.75), o(0.95)] };
}

/** How much narrower (rounded) or wider (spread) than at rest a mouth must be to count as that shape. */
const ROUND_WIDTH = 0.9;
const WIDE_WIDTH = 1.07;

/**
 * The mouth frame a measured mouth shows, and how far it is from that frame's ideal (lower is a better sample).
 * Undefined for a mouth between shapes.
 *
 * The ideals follow what the lips do for each sound, on the person's own scale: m/b/p the lips together (the more
 * closed, the better); "oo" (`r1`) a small rounded opening, "o" (`r2`) a little larger; "ee" (`w1`) spread and
 * about half open, "a" as in "cat" (`w2`) spread and open; `m1`..`m4` from nearly closed to wide open.
 */
export function mouthFrameOf(m: MouthMeasure, range: MouthRange): { frame: string; distance: number } | undefined {
  const relWidth = m.width / range.restWidth;
  const [q25, q50, q75, q95] = range.openings;
  if (m.opening < CLOSED_OPENING) {
    // Closed lips at their resting width: the m/b/p mouth. Pressed or pursed closed lips are not.
    return Math.abs(relWidth - 1) < 0.06 ? { frame: 'm0', distance: (3 * m.opening) / CLOSED_OPENING + Math.abs(relWidth - 1) * 4 } : undefined;
  }
  if (relWidth < ROUND_WIDTH) {
    // A rounded mouth opens little: one more open than the middle of the person's openings is an open mouth.
    if (m.opening > q50) return undefined;
    const frame = m.opening < q25 * 0.7 ? 'r1' : 'r2';
    const target = frame === 'r1' ? q25 * 0.45 : q25;
    return { frame, distance: Math.abs(m.opening - target) / q50 + (relWidth - 0.8) ** 2 * 10 };
  }
  if (relWidth > WIDE_WIDTH) {
    const frame = m.opening < (q50 + q75) / 2 ? 'w1' : 'w2';
    const target = frame === 'w1' ? q50 : q75;
    return { frame, distance: Math.abs(m.opening - target) / q50 + Math.max(0, 1.15 - relWidth) * 4 };
  }
  // The open levels at the person's resting width: m1..m4 at the quartiles of their openings.
  const targets = [q25 * 0.6, q50 * 0.9, q75, q95];
  let best = 0;
  for (let i = 1; i < targets.length; i++) if (Math.abs(m.opening - targets[i]!) < Math.abs(m.opening - targets[best]!)) best = i;
  return { frame: `m${best + 1}`, distance: Math.abs(m.opening - targets[best]!) / q50 + Math.abs(relWidth - 1) * 2 };
}
