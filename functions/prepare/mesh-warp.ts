/**
 * A landmark-driven mesh warp of a face: the 68 landmarks plus a ring of fixed points are triangulated
 * (Delaunay, on the widest-open mouth so no triangle folds) and every destination triangle samples its
 * source triangle (piecewise affine, bilinear). Moving the lower lip and jaw opens the mouth; moving the upper eyelids
 * onto the lower ones closes the eyes. The mouth shapes (lips rebuilt about an opening of a shape's size) are
 * ./mouth-shapes.ts; what shows inside an open mouth is painted by ./mouth-inside.ts.
 */
import Delaunator from 'delaunator';
import { dilate } from '#media/raster/field';
import { fillHole } from '#media/raster/fill-hole';
import type { Picture } from '#media/raster/picture';
import type { Point } from './faces.ts';

/** Straight RGBA. */

export interface FaceGeometry {
  landmarks: Point[];
  /** Jaw width (landmark 0 to 16), px. */
  faceWidth: number;
}

export const JAW_WEIGHT: Record<number, number> = {
  3: 0.12,
  4: 0.35,
  5: 0.62,
  6: 0.85,
  7: 0.97,
  8: 1,
  9: 0.97,
  10: 0.85,
  11: 0.62,
  12: 0.35,
  13: 0.12,
};
const LOWER_LIP = [55, 56, 57, 58, 59, 65, 66, 67];
const UPPER_LIP = [49, 50, 51, 52, 53, 61, 62, 63];
const CORNERS = [48, 54, 60, 64];

/** How far the lower lip drops at full openness, as a share of the jaw width. */
export const MAX_DROP = 0.13;

/** Openness 0..1 of each mouth level (0 closed .. 4 wide). */
export const openness = (level: number, levels: number) => level / (levels - 1);

/** Landmark positions for a mouth openness (0..1) and closed or open eyes. */
export function targetLandmarks(face: FaceGeometry, open: number, eyesClosed: boolean): Point[] {
  const p = face.landmarks.map((q) => ({ ...q }));
  const drop = MAX_DROP * face.faceWidth * open;
  for (const [i, w] of Object.entries(JAW_WEIGHT)) p[Number(i)]!.y += drop * w;
  for (const i of LOWER_LIP) p[i]!.y += drop;
  for (const i of UPPER_LIP) p[i]!.y -= drop * 0.1;
  for (const i of CORNERS) p[i]!.y += drop * 0.35;
  // The corners draw in a little as the mouth opens.
  const mid = (face.landmarks[48]!.x + face.landmarks[54]!.x) / 2;
  for (const i of CORNERS) p[i]!.x += (mid - p[i]!.x) * 0.06 * open;
  if (eyesClosed) {
    // Upper lid (37, 38 / 43, 44) down onto the lower lid (41, 40 / 47, 46), stopping a hair short of it (no folded triangle).
    for (const [upper, lower] of [
      [37, 41],
      [38, 40],
      [43, 47],
      [44, 46],
    ] as const) {
      const u = p[upper]!,
        l = p[lower]!;
      u.x += (l.x - u.x) * 0.97;
      u.y += (l.y - u.y) * 0.97;
    }
  }
  return p;
}

/** Fixed points around the face that bound the deformation: a wide ring and the box's edge. */
export function anchorPoints(face: FaceGeometry, box: { x: number; y: number; width: number; height: number }): Point[] {
  const lm = face.landmarks;
  const cx = (lm[0]!.x + lm[16]!.x) / 2;
  const cy = (lm[27]!.y + lm[8]!.y) / 2;
  const rx = face.faceWidth * 0.78;
  const ry = (lm[8]!.y - lm[27]!.y) * 1.2;
  const points: Point[] = [];
  for (let i = 0; i < 24; i++) {
    const a = (i / 24) * 2 * Math.PI;
    points.push({ x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a) });
  }
  for (let i = 0; i <= 4; i++) {
    const t = i / 4;
    points.push({ x: box.x + t * box.width, y: box.y }, { x: box.x + t * box.width, y: box.y + box.height });
    if (i > 0 && i < 4) points.push({ x: box.x, y: box.y + t * box.height }, { x: box.x + box.width, y: box.y + t * box.height });
  }
  return points;
}

/** Triangles (index triples) over the given layout of points. */
export function triangulate(points: Point[]): Uint32Array {
  return Delaunator.from(
    points,
    (p) => p.x,
    (p) => p.y,
  ).triangles;
}

/**
 * Warps `src` (box-sized) so that `from[i]` lands on `to[i]`; points are in box coordinates. Pixels outside
 * every triangle keep the source. Returns the warped picture and a 0/1 mask of the pixels that moved.
 */
export function warp(src: Picture, triangles: Uint32Array, from: Point[], to: Point[]): { picture: Picture; moved: Uint8Array } {
  const { width, height } = src;
  const out = Buffer.from(src.data);
  const moved = new Uint8Array(width * height);
  const s = src.data;
  for (let t = 0; t < triangles.length; t += 3) {
    const [i, j, k] = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!];
    const a = to[i]!,
      b = to[j]!,
      c = to[k]!;
    const same = [i, j, k].every((n) => Math.abs(from[n]!.x - to[n]!.x) < 1e-3 && Math.abs(from[n]!.y - to[n]!.y) < 1e-3);
    if (same) continue;
    const det = (b.y - c.y) * (a.x - c.x) + (c.x - b.x) * (a.y - c.y);
    if (Math.abs(det) < 1e-6) continue;
    const fa = from[i]!,
      fb = from[j]!,
      fc = from[k]!;
    const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x, c.x)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(a.x, b.x, c.x)));
    const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y, c.y)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(a.y, b.y, c.y)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5,
          py = y + 0.5;
        const l1 = ((b.y - c.y) * (px - c.x) + (c.x - b.x) * (py - c.y)) / det;
        const l2 = ((c.y - a.y) * (px - c.x) + (a.x - c.x) * (py - c.y)) / det;
        const l3 = 1 - l1 - l2;
        if (l1 < -1e-4 || l2 < -1e-4 || l3 < -1e-4) continue;
        const sx = l1 * fa.x + l2 * fb.x + l3 * fc.x - 0.5;
        const sy = l1 * fa.y + l2 * fb.y + l3 * fc.y - 0.5;
        sampleInto(s, width, height, sx, sy, out, (y * width + x) * 4);
        moved[y * width + x] = 1;
      }
    }
  }
  return { picture: { width, height, data: out }, moved };
}

/** Bilinear sample with premultiplied alpha (no dark fringes where the matte is partial). */
function sampleInto(s: Buffer, width: number, height: number, sx: number, sy: number, out: Buffer, o: number): void {
  const cx = Math.min(width - 1, Math.max(0, sx)),
    cy = Math.min(height - 1, Math.max(0, sy));
  const x0 = Math.floor(cx),
    y0 = Math.floor(cy);
  const x1 = Math.min(width - 1, x0 + 1),
    y1 = Math.min(height - 1, y0 + 1);
  const fx = cx - x0,
    fy = cy - y0;
  const w = [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy];
  const idx = [(y0 * width + x0) * 4, (y0 * width + x1) * 4, (y1 * width + x0) * 4, (y1 * width + x1) * 4];
  let r = 0,
    g = 0,
    b = 0,
    a = 0;
  for (let n = 0; n < 4; n++) {
    const i = idx[n]!;
    const wa = w[n]! * s[i + 3]!;
    r += s[i]! * wa;
    g += s[i + 1]! * wa;
    b += s[i + 2]! * wa;
    a += wa;
  }
  if (a <= 0) {
    out[o] = s[idx[0]!]!;
    out[o + 1] = s[idx[0]! + 1]!;
    out[o + 2] = s[idx[0]! + 2]!;
    out[o + 3] = 0;
    return;
  }
  out[o] = Math.round(r / a);
  out[o + 1] = Math.round(g / a);
  out[o + 2] = Math.round(b / a);
  out[o + 3] = Math.round(a);
}

/** Coverage 0..1 of a pixel centre by a closed polygon, anti-aliased over about a pixel. */
function polygonCoverage(poly: Point[], px: number, py: number, soft = 1): number {
  return Math.min(1, Math.max(0, 0.5 + signedDistance(poly, px, py) / soft));
}

/** Distance from a point to a closed polygon's outline: positive inside, negative outside. */
export function signedDistance(poly: Point[], px: number, py: number): number {
  let inside = false;
  let nearest = Infinity;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!,
      b = poly[j]!;
    if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) inside = !inside;
    const dx = b.x - a.x,
      dy = b.y - a.y;
    const t = Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy || 1)));
    nearest = Math.min(nearest, Math.hypot(px - (a.x + t * dx), py - (a.y + t * dy)));
  }
  return inside ? nearest : -nearest;
}

/** A smooth closed curve through the points (Catmull-Rom, `steps` segments between two points). */
export function smoothLoop(points: Point[], steps = 6): Point[] {
  const out: Point[] = [];
  const n = points.length;
  for (let i = 0; i < n; i++) {
    const p0 = points[(i - 1 + n) % n]!,
      p1 = points[i]!,
      p2 = points[(i + 1) % n]!,
      p3 = points[(i + 2) % n]!;
    for (let s = 0; s < steps; s++) {
      const t = s / steps,
        t2 = t * t,
        t3 = t2 * t;
      const f = (a: number, b: number, c: number, d: number) =>
        0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3);
      out.push({ x: f(p0.x, p1.x, p2.x, p3.x), y: f(p0.y, p1.y, p2.y, p3.y) });
    }
  }
  return out;
}

/** A closed eye's lash line: the upper lid's warped contour (36, 37, 38, 39 / 42, 43, 44, 45) darkened. */
export function paintLashes(picture: Picture, to: Point[], faceWidth: number, moved: Uint8Array): void {
  const width = Math.max(1, faceWidth * 0.012);
  for (const chain of [
    [36, 37, 38, 39],
    [42, 43, 44, 45],
  ]) {
    const pts = chain.map((i) => to[i]!);
    const xs = pts.map((p) => p.x),
      ys = pts.map((p) => p.y);
    for (let y = Math.max(0, Math.floor(Math.min(...ys) - 3)); y <= Math.min(picture.height - 1, Math.ceil(Math.max(...ys) + 3)); y++) {
      for (let x = Math.max(0, Math.floor(Math.min(...xs) - 2)); x <= Math.min(picture.width - 1, Math.ceil(Math.max(...xs) + 2)); x++) {
        let dist = Infinity;
        for (let i = 0; i + 1 < pts.length; i++) {
          const a = pts[i]!,
            b = pts[i + 1]!;
          const dx = b.x - a.x,
            dy = b.y - a.y;
          const t = Math.max(0, Math.min(1, ((x + 0.5 - a.x) * dx + (y + 0.5 - a.y) * dy) / (dx * dx + dy * dy || 1)));
          dist = Math.min(dist, Math.hypot(x + 0.5 - (a.x + t * dx), y + 0.5 - (a.y + t * dy)));
        }
        const cover = Math.min(1, Math.max(0, width / 2 + 0.5 - dist)) * 0.75;
        if (cover <= 0) continue;
        const o = (y * picture.width + x) * 4;
        for (let n = 0; n < 3; n++) picture.data[o + n] = Math.round(picture.data[o + n]! * (1 - 0.7 * cover));
        moved[y * picture.width + x] = 1;
      }
    }
  }
}

/**
 * The face with its lips closed over whatever showed between them (a smiling photo's teeth): inside the outer lip
 * contour, pixels lighter and less coloured than the lips are (teeth) are filled from the lips around them. The mouth
 * shapes are warped from it, so that rounded lips do not carry a stretched row of teeth.
 */
export function closeLips(picture: Picture, landmarks: Point[], faceWidth: number): Picture {
  const poly = smoothLoop([48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59].map((i) => landmarks[i]!));
  const margin = Math.ceil(faceWidth * 0.03);
  const x0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p.x))) - margin);
  const x1 = Math.min(picture.width - 1, Math.ceil(Math.max(...poly.map((p) => p.x))) + margin);
  const y0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p.y))) - margin);
  const y1 = Math.min(picture.height - 1, Math.ceil(Math.max(...poly.map((p) => p.y))) + margin);
  const w = x1 - x0 + 1,
    h = y1 - y0 + 1;
  const d = picture.data;
  const lum = new Float32Array(w * h),
    chroma = new Float32Array(w * h),
    inside = new Uint8Array(w * h);
  const lums: number[] = [],
    chromas: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = ((y + y0) * picture.width + x + x0) * 4;
      const i = y * w + x;
      lum[i] = 0.299 * d[o]! + 0.587 * d[o + 1]! + 0.114 * d[o + 2]!;
      chroma[i] = Math.max(d[o]!, d[o + 1]!, d[o + 2]!) - Math.min(d[o]!, d[o + 1]!, d[o + 2]!);
      if (polygonCoverage(poly, x + x0 + 0.5, y + y0 + 0.5) > 0.5) {
        inside[i] = 1;
        lums.push(lum[i]!);
        chromas.push(chroma[i]!);
      }
    }
  }
  if (!lums.length) return picture;
  const median = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const lipLum = median(lums),
    lipChroma = median(chromas);
  const teeth = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) if (inside[i] && lum[i]! > lipLum + 25 && chroma[i]! <= lipChroma) teeth[i] = 1;
  const hole = dilate(teeth, w, h, Math.max(1, Math.round(faceWidth / 150)));
  const rgb = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) for (let n = 0; n < 3; n++) rgb[(y * w + x) * 3 + n] = d[((y + y0) * picture.width + x + x0) * 4 + n]!;
  const filled = fillHole(rgb, hole, w, h);
  const out = Buffer.from(d);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) for (let n = 0; n < 3; n++) out[((y + y0) * picture.width + x + x0) * 4 + n] = filled[(y * w + x) * 3 + n]!;
  return { width: picture.width, height: picture.height, data: out };
}
