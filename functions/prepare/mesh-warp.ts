/**
 * A landmark-driven mesh warp of a face: the 68 landmarks plus a ring of fixed points are triangulated
 * (Delaunay, on the widest-open mouth so no triangle folds) and every destination triangle samples its
 * source triangle (piecewise affine, bilinear). Moving the lower lip and jaw opens the mouth; rebuilding the lips
 * about an opening of a shape's size (corners in or out, lips rounded, the lower lip to the upper teeth) makes the
 * mouth shapes; moving the upper eyelids onto the lower ones closes the eyes.
 */
import Delaunator from 'delaunator';
import type { Point } from './faces.ts';
import { dilate, fillHole } from './layers.ts';

/** Straight RGBA. */
export interface Picture {
  width: number;
  height: number;
  data: Buffer;
}

export interface FaceGeometry {
  landmarks: Point[];
  /** Jaw width (landmark 0 to 16), px. */
  faceWidth: number;
}

const JAW_WEIGHT: Record<number, number> = { 3: 0.12, 4: 0.35, 5: 0.62, 6: 0.85, 7: 0.97, 8: 1, 9: 0.97, 10: 0.85, 11: 0.62, 12: 0.35, 13: 0.12 };
const LOWER_LIP = [55, 56, 57, 58, 59, 65, 66, 67];
const UPPER_LIP = [49, 50, 51, 52, 53, 61, 62, 63];
const CORNERS = [48, 54, 60, 64];

/** How far the lower lip drops at full openness, as a share of the jaw width. */
const MAX_DROP = 0.13;

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

/**
 * A mouth shape besides opening and closing (domain/look.ts SHAPE_FRAMES), in units of the resting mouth's width W
 * (outer corner to corner, landmarks 48 to 54): the outer width, the inner opening (width and height), how round the
 * lips are drawn (0: the person's own lip line, scaled; 1: an ellipse), how far the jaw drops (as `openness`), how
 * far the lower lip rises to the upper teeth (share of its thickness), and how much of the opening the upper teeth
 * fill (paintMouth).
 */
export interface ShapePose {
  width: number;
  openingWidth: number;
  openingHeight: number;
  round: number;
  jaw: number;
  tuck: number;
  teeth: number;
}

/** The photo bot's shape frames (every frame of domain/look.ts SHAPE_FRAMES): r1/r2 rounded (corners in), w1/w2 spread (corners out), fv lower lip to the upper teeth. */
export const SHAPE_POSES: Record<string, ShapePose> = {
  r1: { width: 0.7, openingWidth: 0.26, openingHeight: 0.11, round: 0.85, jaw: 0.1, tuck: 0, teeth: 0 },
  r2: { width: 0.74, openingWidth: 0.34, openingHeight: 0.3, round: 0.9, jaw: 0.4, tuck: 0, teeth: 0.22 },
  w1: { width: 1.2, openingWidth: 0.84, openingHeight: 0.075, round: 0, jaw: 0.08, tuck: 0, teeth: 0.8 },
  w2: { width: 1.15, openingWidth: 0.8, openingHeight: 0.22, round: 0, jaw: 0.4, tuck: 0, teeth: 0.4 },
  fv: { width: 1.02, openingWidth: 0.62, openingHeight: 0.07, round: 0, jaw: 0, tuck: 0.55, teeth: 1 },
};

const INNER_UPPER = [60, 61, 62, 63, 64];
const INNER_LOWER = [64, 65, 66, 67, 60];

/**
 * Landmark positions for a mouth shape: the lips are rebuilt in the mouth's own frame (along the line of its corners,
 * so a tilted face keeps its tilt) around an opening of the pose's size, each lip keeping the person's own thickness
 * along it and, as much as the pose is not round, the person's own lip line; the jaw drops as for `openness`.
 * Nothing but the lips, the jaw and (eyes closed) the upper lids moves.
 */
function shapeLandmarks(face: FaceGeometry, pose: ShapePose, eyesClosed: boolean): { landmarks: Point[]; opening: Point[] } {
  const p = targetLandmarks(face, 0, eyesClosed);
  const lm = face.landmarks;
  const left = lm[48]!,
    right = lm[54]!;
  const W = Math.hypot(right.x - left.x, right.y - left.y) || 1;
  const ex = (right.x - left.x) / W,
    ey = (right.y - left.y) / W;
  // Across the mouth (u, right) and down it (v), from the middle of the corners.
  const mid = { x: (left.x + right.x) / 2, y: (left.y + right.y) / 2 };
  const local = (q: Point) => ({ u: (q.x - mid.x) * ex + (q.y - mid.y) * ey, v: -(q.x - mid.x) * ey + (q.y - mid.y) * ex });
  const place = (u: number, v: number): Point => ({ x: mid.x + u * ex - v * ey, y: mid.y + u * ey + v * ex });
  const rest = lm.map(local);
  /** The rest contour's v at u (piecewise linear through the given landmarks, ordered by u). */
  const along = (chain: number[], u: number) => {
    const pts = chain.map((i) => rest[i]!).sort((a, b) => a.u - b.u);
    if (u <= pts[0]!.u) return pts[0]!.v;
    for (let i = 0; i + 1 < pts.length; i++) {
      const a = pts[i]!,
        b = pts[i + 1]!;
      if (u <= b.u) return a.v + ((b.v - a.v) * (u - a.u)) / (b.u - a.u || 1);
    }
    return pts[pts.length - 1]!.v;
  };
  const drop = MAX_DROP * face.faceWidth * pose.jaw;
  for (const [i, w] of Object.entries(JAW_WEIGHT)) p[Number(i)]!.y += drop * w;

  // The opening: centred across halfway from the corners' middle to the lips' middles (a face turned a little has
  // them off the corners' middle; the landmarks place them only roughly), and down where the resting lips meet, lowered by half the jaw's drop (raised a little by a tuck).
  const uc = (rest[51]!.u + rest[57]!.u + rest[62]!.u + rest[66]!.u) / 8;
  const restLine = (rest[60]!.v + rest[64]!.v) / 2;
  const restGap = along(INNER_LOWER, uc) - along(INNER_UPPER, uc);
  const centre = restLine + restGap / 2 + drop * 0.45 - pose.tuck * 0.04 * W;
  /** Across, from the lips' middle: -1 at the left corner, 1 at the right one. */
  const rel = (u: number) => (u < uc ? (u - uc) / (uc - rest[48]!.u) : (u - uc) / (rest[54]!.u - uc));
  const scaled = (i: number) => uc + (rest[i]!.u - uc) * pose.width;
  const a = Math.max(1, Math.min((pose.openingWidth * W) / 2, 0.9 * pose.width * Math.min(uc - rest[60]!.u, rest[64]!.u - uc)));
  const half = (pose.openingHeight * W) / 2;
  // A round opening is an ellipse; a spread one a lens, tapering to its corners.
  const exponent = 0.5 + 0.3 * (1 - pose.round);
  const profile = (u: number) => Math.max(0, 1 - ((u - uc) / a) ** 2) ** exponent;
  const innerUpper = (u: number) => centre - half * profile(u);
  const innerLower = (u: number) => centre + half * profile(u);
  const clampIn = (r: number) => uc + Math.max(-1, Math.min(1, r)) * a;
  for (const i of [61, 62, 63, 65, 66, 67]) {
    const u = clampIn((rest[i]!.u - uc) / Math.max(1, i === 61 || i === 67 ? uc - rest[60]!.u : rest[64]!.u - uc));
    p[i] = place(u, INNER_UPPER.includes(i) ? innerUpper(u) : innerLower(u));
  }
  // The inner corners (where the lips meet) keep their place between the outer corners, scaled with them.
  for (const i of [60, 64]) p[i] = place(scaled(i), centre);
  // Lip thickness at a point of the outer contour: from the rest inner contour below (or above) it.
  const restUpperThick = (i: number) => Math.max(W * 0.04, along(INNER_UPPER, rest[i]!.u) - rest[i]!.v);
  const restLowerThick = (i: number) => Math.max(W * 0.04, rest[i]!.v - along(INNER_LOWER, rest[i]!.u));
  for (const i of [49, 50, 51, 52, 53, 55, 56, 57, 58, 59]) {
    const r = rel(rest[i]!.u);
    const upper = i < 54;
    // The person's lip line, carried over; and the round lip: an ellipse just outside the opening's.
    const thick = upper ? restUpperThick(i) : restLowerThick(i) * (1 - pose.tuck);
    const own = upper ? innerUpper(clampIn(r)) - thick : innerLower(clampIn(r)) + thick;
    const middle = upper ? -(half + restUpperThick(51)) : half + restLowerThick(57) * (1 - pose.tuck);
    const ellipse = centre + middle * Math.sqrt(Math.max(0, 1 - r * r));
    p[i] = place(scaled(i), own + (ellipse - own) * pose.round);
  }
  for (const i of [48, 54]) p[i] = place(scaled(i), centre + (rest[i]!.v - restLine));
  // The opening's outline (for paintMouth): along the upper lip from the left, back along the lower one.
  const opening: Point[] = [];
  const at = (n: number) => uc - a + (2 * a * n) / 16;
  for (let n = 0; n <= 16; n++) opening.push(place(at(n), innerUpper(at(n))));
  for (let n = 15; n >= 1; n--) opening.push(place(at(n), innerLower(at(n))));
  return { landmarks: p, opening };
}

/**
 * Points around the lips that come part of the way with them (half the lips' and jaw's movement, by inverse square distance),
 * so the cheeks and the chin between the lips and the still face stretch smoothly instead of in one long triangle.
 * Returns where they are (`from`) and where they go (`to`), to warp together with the landmarks.
 */
function mouthRing(face: FaceGeometry, to: Point[]): { from: Point[]; to: Point[] } {
  const lm = face.landmarks;
  const left = lm[48]!,
    right = lm[54]!;
  const W = Math.hypot(right.x - left.x, right.y - left.y) || 1;
  const ex = (right.x - left.x) / W,
    ey = (right.y - left.y) / W;
  const mid = { x: (left.x + right.x) / 2, y: (left.y + right.y) / 2 };
  // The lips and the jaw: every landmark a mouth moves.
  const moving = [...Array.from({ length: 13 }, (_, n) => 2 + n), ...Array.from({ length: 20 }, (_, n) => 48 + n)];
  const ringFrom: Point[] = [];
  const ringTo: Point[] = [];
  for (const [u, v, follow] of RING) {
    const q = { x: mid.x + u * W * ex - v * W * ey, y: mid.y + u * W * ey + v * W * ex };
    let wsum = 0,
      dx = 0,
      dy = 0;
    for (const i of moving) {
      const w = 1 / ((lm[i]!.x - q.x) ** 2 + (lm[i]!.y - q.y) ** 2 + 1e-6);
      wsum += w;
      dx += w * (to[i]!.x - lm[i]!.x);
      dy += w * (to[i]!.y - lm[i]!.y);
    }
    ringFrom.push(q);
    ringTo.push({ x: q.x + (follow * dx) / wsum, y: q.y + (follow * dy) / wsum });
  }
  return { from: ringFrom, to: ringTo };
}

/**
 * The ring about the mouth, in resting mouth widths across (u) and down (v) from the middle of its corners, and the
 * share of the lips' movement each point follows: the two on the cheeks beside the nose stay (the cheeks under the
 * eyes keep still).
 */
const RING: [number, number, number][] = [
  [-0.85, 0, 0.5],
  [0.85, 0, 0.5],
  [-0.72, -0.22, 0.5],
  [0.72, -0.22, 0.5],
  [-0.62, 0.28, 0.5],
  [0.62, 0.28, 0.5],
  [-0.3, 0.5, 0.5],
  [0, 0.55, 0.5],
  [0.3, 0.5, 0.5],
  [-0.85, -0.55, 0],
  [0.85, -0.55, 0],
];

/**
 * Everything the warp of a mouth shape needs: the points where they are (`from`: landmarks, anchors, the ring about the
 * mouth) and where they go (`to`), the triangles between them (the triangulation of where they go, or else of where
 * they are: the first with no folded triangle), and the opening's outline for paintMouth.
 */
export function shapeWarp(
  face: FaceGeometry,
  pose: ShapePose,
  eyesClosed: boolean,
  anchors: Point[],
): { from: Point[]; to: Point[]; triangles: Uint32Array; opening: Point[] } {
  const { landmarks, opening } = shapeLandmarks(face, pose, eyesClosed);
  const ring = mouthRing(face, landmarks);
  const from = [...face.landmarks, ...anchors, ...ring.from];
  const to = [...landmarks, ...anchors, ...ring.to];
  const candidates = [triangulate(to), triangulate(from)];
  const triangles = candidates.find((t) => foldedTriangles(t, from, to) === 0) ?? candidates[1]!;
  return { from, to, triangles, opening };
}

/**
 * Triangles whose corners turn round between two layouts (a fold: the warp would tear or mirror a patch of the
 * face there). The warp must never have any.
 * @internal Exported for its tests.
 */
export function foldedTriangles(triangles: Uint32Array, from: Point[], to: Point[]): number {
  const area = (pts: Point[], i: number, j: number, k: number) =>
    (pts[j]!.x - pts[i]!.x) * (pts[k]!.y - pts[i]!.y) - (pts[k]!.x - pts[i]!.x) * (pts[j]!.y - pts[i]!.y);
  let folded = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const [i, j, k] = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!];
    if (Math.sign(area(from, i, j, k)) !== Math.sign(area(to, i, j, k))) folded++;
  }
  return folded;
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
  const signed = inside ? nearest : -nearest;
  return Math.min(1, Math.max(0, 0.5 + signed / soft));
}

/** A smooth closed curve through the points (Catmull-Rom, `steps` segments between two points). */
function smoothLoop(points: Point[], steps = 6): Point[] {
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

/**
 * The open mouth's inside: the inner-lip contour (60-67, warped, smoothed) filled dark, deepest at the
 * centre, with the upper teeth as a soft, shaded band under the upper lip: once the mouth is open enough (a level), or
 * over the share `teeth` of the opening's height (a shape, its `opening` outlined: 1 fills it, the upper teeth
 * resting on the lower lip).
 */
export function paintMouth(picture: Picture, to: Point[], faceWidth: number, moved: Uint8Array, shape?: { opening: Point[]; teeth: number }): void {
  const teethShare = shape?.teeth;
  const poly = shape?.opening ?? smoothLoop([60, 61, 62, 63, 64, 65, 66, 67].map((i) => to[i]!));
  const top = Math.min(...poly.map((p) => p.y));
  const bottom = Math.max(...poly.map((p) => p.y));
  const gap = bottom - top;
  if (gap < 1) return;
  const upper = shape ? shape.opening.slice(0, 17) : poly.slice(0, 4 * 6 + 1);
  const upperAt = (x: number) => {
    for (let i = 0; i + 1 < upper.length; i++) {
      const a = upper[i]!,
        b = upper[i + 1]!;
      if ((x >= a.x && x <= b.x) || (x >= b.x && x <= a.x)) return a.y + ((b.y - a.y) * (x - a.x)) / (b.x - a.x || 1);
    }
    return top;
  };
  const teeth = teethShare === undefined ? Math.min(gap * 0.28, faceWidth * 0.04) : gap * teethShare;
  const showTeeth = teethShare === undefined ? gap > faceWidth * 0.04 : teethShare > 0;
  const x0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p.x))) - 1);
  const x1 = Math.min(picture.width - 1, Math.ceil(Math.max(...poly.map((p) => p.x))) + 1);
  const cx = (x0 + x1) / 2,
    half = (x1 - x0) / 2 || 1;
  const d = picture.data;
  for (let y = Math.max(0, Math.floor(top) - 1); y <= Math.min(picture.height - 1, Math.ceil(bottom) + 1); y++) {
    for (let x = x0; x <= x1; x++) {
      const cover = polygonCoverage(poly, x + 0.5, y + 0.5, 1.4);
      if (cover <= 0) continue;
      const across = Math.abs(x + 0.5 - cx) / half;
      // Darker towards the middle of the opening (the throat), lighter and redder towards the corners.
      const depth = 1 - across * across;
      let colour = [78 - 50 * depth, 34 - 24 * depth, 36 - 24 * depth];
      const below = y + 0.5 - upperAt(x + 0.5);
      if (showTeeth && below >= -1 && below < teeth && across < 0.8) {
        const shade = 0.62 + 0.3 * (1 - across / 0.8) - 0.15 * Math.max(0, below / teeth);
        const soft = Math.min(1, (teeth - below) / 2) * Math.min(1, (0.8 - across) * 6);
        const tooth = [232 * shade, 226 * shade, 214 * shade];
        colour = colour.map((c, n) => c + (tooth[n]! - c) * soft);
      }
      const o = (y * picture.width + x) * 4;
      for (let n = 0; n < 3; n++) d[o + n] = Math.round(d[o + n]! + (colour[n]! - d[o + n]!) * cover);
      d[o + 3] = Math.max(d[o + 3]!, Math.round(255 * cover));
      moved[y * picture.width + x] = 1;
    }
  }
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
