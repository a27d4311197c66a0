/**
 * The face space of a video bot (docs/video-bots.md): every frame's face is brought, by a similarity (scale, roll,
 * shift) fitted to the landmarks that do not move when the person speaks (eye corners and nose), onto one
 * reference face. Mouth samples are cut and stored in that space, and drawn back onto any frame through the inverse
 * of that frame's similarity: the preparation and the render share this one definition.
 */

export interface Point {
  x: number;
  y: number;
}

/** x' = a·x − b·y + tx, y' = b·x + a·y + ty: a rotation with a scale, then a shift. */
export interface Similarity {
  a: number;
  b: number;
  tx: number;
  ty: number;
}

/** The 68-point landmarks (iBUG order) that a speaking mouth does not move: the nose's bridge and base, the eyes' corners. */
export const STABLE_POINTS = [27, 28, 29, 30, 31, 33, 35, 36, 39, 42, 45] as const;
/** The lips' landmarks (outer 48-59, inner 60-67) and the jaw's line below the ears (2-14). */
export const JAW_POINTS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;

/** The lower face's box in face space, in eye distances from the eyes' midpoint: under the nose to below the chin. */
const LOWER_FACE = { left: -1.15, right: 1.15, top: 0.55, bottom: 2.15 } as const;

export const applySimilarity = (t: Similarity, p: Point): Point => ({ x: t.a * p.x - t.b * p.y + t.tx, y: t.b * p.x + t.a * p.y + t.ty });

export function invertSimilarity(t: Similarity): Similarity {
  const d = t.a * t.a + t.b * t.b;
  const a = t.a / d;
  const b = -t.b / d;
  return { a, b, tx: -(a * t.tx - b * t.ty), ty: -(b * t.tx + a * t.ty) };
}

/** The similarity that best carries `from` onto `to` (least squares; the two lists pair point by point). */
function fitSimilarity(from: readonly Point[], to: readonly Point[]): Similarity {
  const n = from.length;
  let fx = 0,
    fy = 0,
    tx = 0,
    ty = 0;
  for (let i = 0; i < n; i++) {
    fx += from[i]!.x;
    fy += from[i]!.y;
    tx += to[i]!.x;
    ty += to[i]!.y;
  }
  fx /= n;
  fy /= n;
  tx /= n;
  ty /= n;
  let sxx = 0,
    sxy = 0,
    norm = 0;
  for (let i = 0; i < n; i++) {
    const px = from[i]!.x - fx,
      py = from[i]!.y - fy;
    const qx = to[i]!.x - tx,
      qy = to[i]!.y - ty;
    sxx += px * qx + py * qy;
    sxy += px * qy - py * qx;
    norm += px * px + py * py;
  }
  const a = norm > 0 ? sxx / norm : 1;
  const b = norm > 0 ? sxy / norm : 0;
  return { a, b, tx: tx - (a * fx - b * fy), ty: ty - (b * fx + a * fy) };
}

const mid = (p: Point, q: Point): Point => ({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 });
/** The centres of the two eyes (landmarks 36-41 and 42-47). */
const eyeCentres = (landmarks: readonly Point[]): [Point, Point] => [mid(landmarks[36]!, landmarks[39]!), mid(landmarks[42]!, landmarks[45]!)];
export const eyeDistance = (landmarks: readonly Point[]): number => {
  const [l, r] = eyeCentres(landmarks);
  return Math.hypot(r.x - l.x, r.y - l.y);
};

/**
 * The reference face: `landmarks` turned level (eyes on a horizontal line), scaled to `eyePx` between the eyes, and
 * placed so that the lower face's box (LOWER_FACE) starts at (0, 0). Its size is lowerFaceSize(eyePx).
 */
export function referenceFace(landmarks: readonly Point[], eyePx: number): Point[] {
  const [l, r] = eyeCentres(landmarks);
  const origin = { x: -LOWER_FACE.left * eyePx, y: -LOWER_FACE.top * eyePx };
  const t = fitSimilarity(
    [l, r],
    [
      { x: origin.x - eyePx / 2, y: origin.y },
      { x: origin.x + eyePx / 2, y: origin.y },
    ],
  );
  return landmarks.map((p) => applySimilarity(t, p));
}

export const lowerFaceSize = (eyePx: number) => ({
  width: Math.round((LOWER_FACE.right - LOWER_FACE.left) * eyePx),
  height: Math.round((LOWER_FACE.bottom - LOWER_FACE.top) * eyePx),
});

/** The similarity that carries a frame's face (its landmarks) onto the reference face, by the stable points. */
export const toReference = (landmarks: readonly Point[], reference: readonly Point[]): Similarity =>
  fitSimilarity(
    STABLE_POINTS.map((i) => landmarks[i]!),
    STABLE_POINTS.map((i) => reference[i]!),
  );
