/**
 * The photo bot's mouth shapes besides opening and closing (domain/look.ts SHAPE_FRAMES): the lips rebuilt about an
 * opening of a shape's size (corners in or out, lips rounded, the lower lip to the upper teeth), warped with the
 * landmark-driven mesh of ./mesh-warp.ts.
 */
import type { Point } from './faces.ts';
import { type FaceGeometry, JAW_WEIGHT, MAX_DROP, targetLandmarks, triangulate } from './mesh-warp.ts';

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
  r2: { width: 0.74, openingWidth: 0.34, openingHeight: 0.3, round: 0.9, jaw: 0.4, tuck: 0, teeth: 0.1 },
  w1: { width: 1.2, openingWidth: 0.84, openingHeight: 0.075, round: 0, jaw: 0.08, tuck: 0, teeth: 0.8 },
  w2: { width: 1.15, openingWidth: 0.8, openingHeight: 0.22, round: 0, jaw: 0.4, tuck: 0, teeth: 0.25 },
  fv: { width: 1.02, openingWidth: 0.62, openingHeight: 0.07, round: 0, jaw: 0, tuck: 0.55, teeth: 1 },
};

/** How much thicker fully rounded lips are drawn than the resting ones. */
const ROUND_FULLER = 0.5;

const INNER_UPPER = [60, 61, 62, 63, 64];
const INNER_LOWER = [64, 65, 66, 67, 60];

/** The mouth's own frame: the corners' distance W, the unit vector from left to right corner, and their middle. */
function mouthAxis(face: FaceGeometry): { W: number; ex: number; ey: number; mid: Point } {
  const left = face.landmarks[48]!;
  const right = face.landmarks[54]!;
  const W = Math.hypot(right.x - left.x, right.y - left.y) || 1;
  return { W, ex: (right.x - left.x) / W, ey: (right.y - left.y) / W, mid: { x: (left.x + right.x) / 2, y: (left.y + right.y) / 2 } };
}

/**
 * Landmark positions for a mouth shape: the lips are rebuilt in the mouth's own frame (along the line of its corners,
 * so a tilted face keeps its tilt) around an opening of the pose's size, each lip keeping the person's own thickness
 * along it and, as much as the pose is not round, the person's own lip line; the jaw drops as for `openness`.
 * Nothing but the lips, the jaw and (eyes closed) the upper lids moves.
 */
function shapeLandmarks(face: FaceGeometry, pose: ShapePose, eyesClosed: boolean): { landmarks: Point[]; opening: Point[] } {
  const p = targetLandmarks(face, 0, eyesClosed);
  const lm = face.landmarks;
  const { W, ex, ey, mid } = mouthAxis(face);
  // Across the mouth (u, right) and down it (v), from the middle of the corners.
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
  // Rounded lips are pushed forward: seen from the front, fuller.
  const fuller = 1 + ROUND_FULLER * pose.round;
  for (const i of [49, 50, 51, 52, 53, 55, 56, 57, 58, 59]) {
    const r = rel(rest[i]!.u);
    const upper = i < 54;
    // The person's lip line, carried over; and the round lip: an ellipse just outside the opening's.
    const thick = (upper ? restUpperThick(i) : restLowerThick(i) * (1 - pose.tuck)) * fuller;
    const own = upper ? innerUpper(clampIn(r)) - thick : innerLower(clampIn(r)) + thick;
    const middle = upper ? -(half + restUpperThick(51) * fuller) : half + restLowerThick(57) * (1 - pose.tuck) * fuller;
    const ellipse = centre + middle * Math.sqrt(Math.max(0, 1 - r * r));
    p[i] = place(scaled(i), own + (ellipse - own) * pose.round);
  }
  // The outer corners keep their height against the inner ones (a smile's lift), except as far as the lips round.
  for (const i of [48, 54]) p[i] = place(scaled(i), centre + (rest[i]!.v - restLine) * (1 - pose.round));
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
  const { W, ex, ey, mid } = mouthAxis(face);
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
