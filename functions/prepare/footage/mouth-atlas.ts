/**
 * The mouth atlas of a video bot: lower faces cut from the recording's frames in face space
 * (functions/domain/face-space.ts), measured, filed under the lip sync's mouth frames, the best few of each kept
 * (the nearest to the frame's ideal, from frames where the lips were not moving fast) and laid out on one sheet.
 */
import sharp from 'sharp';
import { applySimilarity, invertSimilarity, JAW_POINTS, lowerFaceSize, type Point, toReference } from '#domain/face-space';
import type { MouthSample } from '#domain/look';
import { type MouthMeasure, type MouthRange, mouthFrameOf } from './mouth-measures.ts';

/** Samples kept per mouth frame: enough to choose one whose head pose is near the frame it is drawn on. */
const SAMPLES_PER_FRAME = 3;
/** Candidates held while the recording is read (a fixed pool, chosen evenly over it: memory stays bounded). */
const CANDIDATE_POOL = 360;

export interface MouthCandidate {
  /** The recording's frame. */
  index: number;
  /** The lower face in face space, RGB. */
  rgb: Buffer;
  /** Its landmarks in face space (all 68). */
  landmarks: Point[];
  measure: MouthMeasure;
  /** How fast its lips moved (eye distances a frame): a blurred mouth makes a poor sample. */
  motion: number;
  /** Head roll, radians (from the similarity to the reference). */
  roll: number;
}

/** The lower face of a frame (RGB, `width` x `height`), in face space: lowerFaceSize(eyePx), bilinear. */
export function cutLowerFace(rgb: Buffer, width: number, height: number, landmarks: readonly Point[], reference: readonly Point[], eyePx: number) {
  const size = lowerFaceSize(eyePx);
  const toFrame = invertSimilarity(toReference(landmarks, reference));
  const out = Buffer.alloc(size.width * size.height * 3);
  for (let y = 0; y < size.height; y++)
    for (let x = 0; x < size.width; x++) {
      const p = applySimilarity(toFrame, { x: x + 0.5, y: y + 0.5 });
      const sx = Math.min(width - 1.001, Math.max(0, p.x - 0.5));
      const sy = Math.min(height - 1.001, Math.max(0, p.y - 0.5));
      const x0 = Math.floor(sx),
        y0 = Math.floor(sy);
      const fx = sx - x0,
        fy = sy - y0;
      const a = (y0 * width + x0) * 3;
      const b = a + width * 3;
      const o = (y * size.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const top = rgb[a + c]! + (rgb[a + 3 + c]! - rgb[a + c]!) * fx;
        const bottom = rgb[b + c]! + (rgb[b + 3 + c]! - rgb[b + c]!) * fx;
        out[o + c] = Math.round(top + (bottom - top) * fy);
      }
    }
  return { rgb: out, landmarks: landmarks.map((p) => applySimilarity(toReference(landmarks, reference), p)) };
}

/**
 * A pool of at most CANDIDATE_POOL candidates taken evenly over a recording of unknown length (reservoir sampling,
 * seeded: the same recording gives the same atlas).
 */
export class CandidatePool {
  readonly kept: MouthCandidate[] = [];
  private seen = 0;
  private seed = 0x9e3779b9;

  private random(): number {
    this.seed = (Math.imul(this.seed ^ (this.seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return this.seed / 2 ** 32;
  }

  /** Whether the next candidate would be kept (ask before cutting it: cutting costs). */
  wants(): number | undefined {
    this.seen++;
    if (this.kept.length < CANDIDATE_POOL) return this.kept.length;
    const slot = Math.floor(this.random() * this.seen);
    return slot < CANDIDATE_POOL ? slot : undefined;
  }

  put(slot: number, candidate: MouthCandidate) {
    this.kept[slot] = candidate;
  }
}

export interface Atlas {
  samples: MouthSample[];
  /** The sheet: every sample side by side in a grid, RGB PNG. */
  png: Buffer;
}

/** Files the candidates under their mouth frames and keeps the best SAMPLES_PER_FRAME of each, on one sheet. */
export async function buildAtlas(candidates: readonly MouthCandidate[], range: MouthRange, eyePx: number): Promise<Atlas> {
  const byFrame = new Map<string, { candidate: MouthCandidate; score: number }[]>();
  for (const candidate of candidates) {
    const filed = mouthFrameOf(candidate.measure, range);
    if (!filed) continue;
    const score = filed.distance + candidate.motion * 20 + Math.abs(candidate.roll) * 4;
    byFrame.set(filed.frame, [...(byFrame.get(filed.frame) ?? []), { candidate, score }]);
  }
  const chosen: { frame: string; candidate: MouthCandidate }[] = [];
  for (const [frame, list] of byFrame) {
    list.sort((a, b) => a.score - b.score);
    const picked: MouthCandidate[] = [];
    // Different moments of the recording (frames at least a second apart): different head poses to choose from.
    for (const { candidate } of list) {
      if (picked.length >= SAMPLES_PER_FRAME) break;
      if (picked.every((p) => Math.abs(p.index - candidate.index) >= 30)) picked.push(candidate);
    }
    for (const candidate of picked) chosen.push({ frame, candidate });
  }
  const size = lowerFaceSize(eyePx);
  const columns = Math.max(1, Math.ceil(Math.sqrt(chosen.length)));
  const rows = Math.max(1, Math.ceil(chosen.length / columns));
  const sheet = Buffer.alloc(columns * size.width * rows * size.height * 3);
  const samples: MouthSample[] = chosen.map(({ frame, candidate }, i) => {
    const col = i % columns;
    const row = Math.floor(i / columns);
    for (let y = 0; y < size.height; y++)
      candidate.rgb.copy(
        sheet,
        ((row * size.height + y) * columns * size.width + col * size.width) * 3,
        y * size.width * 3,
        (y + 1) * size.width * 3,
      );
    return {
      frame,
      x: col * size.width,
      y: row * size.height,
      sourceFrame: candidate.index,
      roll: Number(candidate.roll.toFixed(4)),
      opening: Number(candidate.measure.opening.toFixed(4)),
      width: Number(candidate.measure.width.toFixed(4)),
      jaw: JAW_POINTS.map((j) => rounded(candidate.landmarks[j]!)),
      nose: rounded(candidate.landmarks[33]!),
    };
  });
  const png = await sharp(sheet, { raw: { width: columns * size.width, height: rows * size.height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer();
  return { samples, png };
}

const rounded = (p: Point): Point => ({ x: Number(p.x.toFixed(2)), y: Number(p.y.toFixed(2)) });
