/**
 * The face of a recording followed frame by frame: the detector (SSD, ~850 ms on a 512-px frame) runs rarely, on
 * the first frame, every DETECT_EVERY frames and whenever the face was lost; on every other frame the 68-point
 * landmark net alone (~37 ms) reads a 224-px crop around where the face was in the frame before. The detector's
 * frames also count the faces in the picture (several people) and size the face.
 */
import { eyeDistance, type Point } from '#domain/face-space';
import { findFaces, landmarksInCrop } from '../faces.ts';

/** Frames between two detections (two seconds at 30 fps): the crop follows the face in between. */
const DETECT_EVERY = 60;
/** Frames between two searches while no face is in the picture (half a second). */
const SEARCH_EVERY = 15;
/** The detector's frame: the picture scaled so that its long side is this. */
const DETECT_SIDE = 512;
/** The landmark net's crop, px a side. */
const CROP_SIDE = 224;
/** The crop around the last landmarks: their box, this much larger, square (the detector's boxes are about so). */
const CROP_MARGIN = 1.15;
/** A second face counts as another person when its box is at least this share of the main face's width. */
const OTHER_FACE_SHARE = 0.5;

export interface TrackedFrame {
  /** The 68 landmarks, px of the frame; undefined when no face was there. */
  landmarks?: Point[];
  /** Set on frames the detector ran on: how many people's faces it found. */
  faces?: number;
}

/** Scales an RGB picture (bilinear) from the box (x, y, side, side) of `rgb` to a square of `out` px; outside is grey. */
function cropSquare(rgb: Buffer, width: number, height: number, x0: number, y0: number, side: number, out: number): Buffer {
  const crop = Buffer.alloc(out * out * 3, 128);
  const step = side / out;
  for (let j = 0; j < out; j++) {
    const sy = y0 + (j + 0.5) * step - 0.5;
    const y = Math.floor(sy);
    const fy = sy - y;
    if (y < 0 || y + 1 >= height) continue;
    for (let i = 0; i < out; i++) {
      const sx = x0 + (i + 0.5) * step - 0.5;
      const x = Math.floor(sx);
      const fx = sx - x;
      if (x < 0 || x + 1 >= width) continue;
      const p = (y * width + x) * 3;
      const q = p + width * 3;
      const o = (j * out + i) * 3;
      for (let c = 0; c < 3; c++) {
        const top = rgb[p + c]! + (rgb[p + 3 + c]! - rgb[p + c]!) * fx;
        const bottom = rgb[q + c]! + (rgb[q + 3 + c]! - rgb[q + c]!) * fx;
        crop[o + c] = Math.round(top + (bottom - top) * fy);
      }
    }
  }
  return crop;
}

function boxOf(points: readonly Point[]) {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x0, y0, x1, y1 };
}

/** Follows one face through the frames given in order (next() once per frame). */
export class FaceTracker {
  private last?: Point[];
  private frame = 0;
  private searchAt = 0;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  async next(rgb: Buffer): Promise<TrackedFrame> {
    const index = this.frame++;
    // Without a face, the detector looks again every SEARCH_EVERY frames, not on every one (it is the costly part).
    if (!this.last) return index >= this.searchAt ? this.detect(rgb, index) : {};
    if (index % DETECT_EVERY === 0) return this.detect(rgb, index);
    const followed = await this.follow(rgb, this.last);
    // A face the crop lost (moved away, turned, covered) is looked for again by the detector.
    if (!followed) return this.detect(rgb, index);
    this.last = followed;
    return { landmarks: followed };
  }

  private async detect(rgb: Buffer, index: number): Promise<TrackedFrame> {
    const scale = Math.min(1, DETECT_SIDE / Math.max(this.width, this.height));
    const w = Math.round(this.width * scale);
    const h = Math.round(this.height * scale);
    const small = scale === 1 ? rgb : cropRect(rgb, this.width, this.height, w, h);
    const faces = await findFaces(small, w, h);
    if (!faces.length) {
      this.last = undefined;
      this.searchAt = index + SEARCH_EVERY;
      return { faces: 0 };
    }
    const main = this.last ? nearest(faces, this.last, scale) : faces.reduce((a, b) => (b.box.width > a.box.width ? b : a));
    const people = faces.filter((f) => f.box.width >= OTHER_FACE_SHARE * main.box.width).length;
    const detected = main.landmarks.map((p) => ({ x: p.x / scale, y: p.y / scale }));
    // The net reads a larger frame's face better from the full-resolution crop than from the 512-px frame.
    const refined = scale < 1 ? ((await this.follow(rgb, detected)) ?? detected) : detected;
    this.last = refined;
    return { landmarks: refined, faces: people };
  }

  /** The landmarks read on a crop around `around` (the last ones), or undefined if they no longer make a face there. */
  private async follow(rgb: Buffer, around: readonly Point[]): Promise<Point[] | undefined> {
    const box = boxOf(around);
    const side = Math.max(box.x1 - box.x0, box.y1 - box.y0) * CROP_MARGIN;
    const x0 = (box.x0 + box.x1) / 2 - side / 2;
    const y0 = (box.y0 + box.y1) / 2 - side / 2;
    const crop = cropSquare(rgb, this.width, this.height, x0, y0, side, CROP_SIDE);
    const found = await landmarksInCrop(crop, CROP_SIDE);
    const points = found.map((p) => ({ x: x0 + (p.x * side) / CROP_SIDE, y: y0 + (p.y * side) / CROP_SIDE }));
    const before = eyeDistance(around);
    const now = eyeDistance(points);
    // A face that changed size by a third between two frames, or whose eyes collapsed, is not the one followed.
    if (!(now > 0.67 * before && now < 1.5 * before)) return undefined;
    return points;
  }
}

/** The whole frame scaled to w x h (bilinear, through cropSquare's sampler on each axis). */
function cropRect(rgb: Buffer, width: number, height: number, w: number, h: number): Buffer {
  const out = Buffer.alloc(w * h * 3);
  const sx = width / w;
  const sy = height / h;
  for (let j = 0; j < h; j++) {
    const y = Math.min(height - 1, Math.floor((j + 0.5) * sy));
    for (let i = 0; i < w; i++) {
      const x = Math.min(width - 1, Math.floor((i + 0.5) * sx));
      rgb.copy(out, (j * w + i) * 3, (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return out;
}

/** Of several faces (detector px), the one whose box holds the face followed so far (frame px). */
function nearest<T extends { box: { x: number; y: number; width: number; height: number } }>(faces: T[], last: readonly Point[], scale: number): T {
  const box = boxOf(last);
  const cx = ((box.x0 + box.x1) / 2) * scale;
  const cy = ((box.y0 + box.y1) / 2) * scale;
  const distance = (f: T) => Math.hypot(f.box.x + f.box.width / 2 - cx, f.box.y + f.box.height / 2 - cy);
  return faces.reduce((a, b) => (distance(b) < distance(a) ? b : a));
}
