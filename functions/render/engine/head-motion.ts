/**
 * The head's motion as a warp of pixels: roll (tilt) about a pivot at the neck, a nod, and the brows lifted by a
 * local bump above the eyes. A look drawn in layers (the built-in bots) turns its head layer rigidly; a look cut
 * from one picture (a photo, a caller's drawing) is warped smoothly: the motion is whole in the head, fades with
 * the direction from the pivot (full straight up, none sideways and below), so the shoulders stay and the neck
 * bends a little without stretching (the local area changes by under 10 %, see the tests). Docs: docs/presenters.md.
 */
import type { BotManifest, FaceGeometry } from '#domain/look';
import type { Picture } from '#media/raster/picture';
import { MAX_TILT } from './animation.ts';

/** The face of a look, canvas units: its manifest's, or one estimated from its head box and mouth. */
export function faceOf(manifest: BotManifest): FaceGeometry {
  if (manifest.face) return manifest.face;
  // A photo's head box is the face's landmarks widened by a quarter of the face's width on each side.
  const size = manifest.head.width / 1.5;
  const { x, y } = manifest.mouth;
  const eyeY = y - 0.42 * size;
  const browY = eyeY - 0.14 * size;
  return {
    pivot: { x, y: y + 0.45 * size },
    eyes: [
      { x: x - 0.2 * size, y: eyeY },
      { x: x + 0.2 * size, y: eyeY },
    ],
    brows: [
      { x: x - 0.2 * size, y: browY },
      { x: x + 0.2 * size, y: browY },
    ],
  };
}

/** Directions from the pivot (radians from straight up) within which the head turns whole, and beyond which nothing moves. */
const WHOLE = (35 * Math.PI) / 180;
const NONE = Math.PI / 2;

/** A rectangle of the canvas (output px) over which a warp is computed, with its per-pixel weights (fixed per look and size). */
export interface WarpRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Share of the roll and nod at each pixel (1 everywhere for a rigid layer). */
  weight: Float32Array;
  /** Brow lift at each pixel (0..1). */
  browBump: Float32Array;
}

/** A pose of the head: tilt in degrees, nod and brow lift in output px. */
export interface HeadPose {
  tilt: number;
  nod: number;
  brow: number;
}

/** The face in output px (canvas units times `scale`). */
function scaled(face: FaceGeometry, scale: number) {
  const p = (q: { x: number; y: number }) => ({ x: q.x * scale, y: q.y * scale });
  return { pivot: p(face.pivot), eyes: face.eyes.map(p), brows: face.brows.map(p) };
}

/** The brow bump at a point: whole on the brow, none at the eye's centre below and two brow-to-eye gaps above. */
function browBumpAt(px: number, py: number, face: ReturnType<typeof scaled>): number {
  let best = 0;
  for (let i = 0; i < face.brows.length; i++) {
    const brow = face.brows[i]!;
    const eye = face.eyes[i]!;
    const gap = Math.max(2, eye.y - brow.y);
    const halfWidth = Math.max(4, Math.abs(face.eyes[1]!.x - face.eyes[0]!.x) * 0.42);
    const u = Math.abs(px - brow.x) / (halfWidth * 1.5);
    if (u >= 1) continue;
    const dy = py - brow.y;
    const v = dy >= 0 ? dy / (1.3 * gap) : -dy / (2.2 * gap);
    if (v >= 1) continue;
    const s = (1 - u * u) ** 2 * (1 - v * v) ** 2;
    if (s > best) best = s;
  }
  return best;
}

/**
 * The warp region of a layer: `rigid` (the whole region turns: a separate head layer) or weighted by the direction
 * from the pivot (one picture). `withBrows` puts the brow bump in it.
 */
export function warpRegion(
  face: FaceGeometry,
  scale: number,
  box: { x: number; y: number; width: number; height: number },
  rigid: boolean,
  withBrows: boolean,
): WarpRegion {
  const f = scaled(face, scale);
  const weight = new Float32Array(box.width * box.height);
  const browBump = new Float32Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) {
    for (let x = 0; x < box.width; x++) {
      const px = box.x + x + 0.5,
        py = box.y + y + 0.5;
      const i = y * box.width + x;
      if (rigid) weight[i] = 1;
      else {
        const angle = Math.atan2(Math.abs(px - f.pivot.x), f.pivot.y - py);
        const u = Math.min(1, Math.max(0, (angle - WHOLE) / (NONE - WHOLE)));
        weight[i] = py >= f.pivot.y ? 0 : 1 - u * u * (3 - 2 * u);
      }
      if (withBrows) browBump[i] = browBumpAt(px, py, f);
    }
  }
  return { ...box, weight, browBump };
}

/**
 * How far a point may move at most (output px) for the region's look: the roll's reach from the pivot plus a nod and
 * a brow lift; the margin a turned layer needs around it.
 */
export function reachOf(face: FaceGeometry, scale: number, box: { x: number; y: number; width: number; height: number }, extra: number): number {
  const f = scaled(face, scale);
  const far = Math.max(
    ...[
      [box.x, box.y],
      [box.x + box.width, box.y],
      [box.x, box.y + box.height],
      [box.x + box.width, box.y + box.height],
    ].map(([x, y]) => Math.hypot(x! - f.pivot.x, y! - f.pivot.y)),
  );
  return Math.ceil(far * Math.sin((MAX_TILT * Math.PI) / 180) + extra) + 2;
}

/**
 * Where each pixel of the region takes its colour from, for a pose: the inverse of the motion (the roll by the
 * pixel's share of the tilt about the pivot, the nod, the brow bump). `rigidNod` moves the whole region down by the
 * nod (a separate head layer); otherwise the nod lowers the face by foreshortening about the pivot (its eyes by `nod`).
 * Calls `at(i, sx, sy)` with the region's pixel index and the source point (output px of the canvas).
 * @internal Exported for its tests.
 */
export function sourcePoints(
  region: WarpRegion,
  face: FaceGeometry,
  scale: number,
  pose: HeadPose,
  rigidNod: boolean,
  at: (i: number, sx: number, sy: number) => void,
): void {
  const f = scaled(face, scale);
  const theta = (pose.tilt * Math.PI) / 180;
  const eyeHeight = Math.max(1, f.pivot.y - (f.eyes[0]!.y + f.eyes[1]!.y) / 2);
  const nodShare = rigidNod ? 0 : pose.nod / eyeHeight;
  const shift = rigidNod ? pose.nod : 0;
  const { weight, browBump } = region;
  for (let y = 0; y < region.height; y++) {
    const py = region.y + y + 0.5 - shift;
    const dy = py - f.pivot.y;
    for (let x = 0; x < region.width; x++) {
      const i = y * region.width + x;
      const px = region.x + x + 0.5;
      const w = weight[i]!;
      let sx = px,
        sy = py;
      if (w > 0) {
        const a = theta * w;
        const c = Math.cos(a),
          s = Math.sin(a);
        const dx = px - f.pivot.x;
        // Inverse of a clockwise turn by `a` (y down): R(-a).
        sx = f.pivot.x + c * dx + s * dy;
        sy = f.pivot.y - s * dx + c * dy;
        if (nodShare) sy -= nodShare * -dy * w;
      }
      const b = browBump[i]!;
      if (b > 0 && pose.brow) sy += pose.brow * b;
      at(i, sx, sy);
    }
  }
}

/**
 * Warps `src` (straight RGBA whose pixel (0,0) lies at (srcX, srcY) of the canvas) into `out` (the region's size),
 * bilinear with premultiplied alpha: no dark fringes, and an edge moves by fractions of a pixel, not in steps. The
 * source points are sourcePoints' (the same formulas, inlined: this runs for every pixel of every new pose).
 * `within` bounds the source's non-transparent pixels (in its own px). With `only`, just the region's pixels it
 * marks are drawn (the others keep what `out` holds).
 */
export function warpInto(
  out: Buffer,
  src: Picture,
  srcX: number,
  srcY: number,
  region: WarpRegion,
  face: FaceGeometry,
  scale: number,
  pose: HeadPose,
  rigidNod: boolean,
  within: { x: number; y: number; width: number; height: number },
  only?: Uint8Array,
): void {
  const s = src.data;
  const sw = src.width,
    sh = src.height;
  const f = scaled(face, scale);
  const theta = (pose.tilt * Math.PI) / 180;
  const eyeHeight = Math.max(1, f.pivot.y - (f.eyes[0]!.y + f.eyes[1]!.y) / 2);
  const nodShare = rigidNod ? 0 : pose.nod / eyeHeight;
  const shift = rigidNod ? pose.nod : 0;
  const { weight, browBump } = region;
  const brow = pose.brow;
  const px0 = f.pivot.x,
    py0 = f.pivot.y;
  // `within`: the box of the source (its own px) outside which it is transparent; points outside it sample nothing.
  const bx0 = within.x - 1,
    bx1 = within.x + within.width,
    by0 = within.y - 1,
    by1 = within.y + within.height;
  for (let y = 0; y < region.height; y++) {
    const py = region.y + y + 0.5 - shift;
    const dy = py - py0;
    let i = y * region.width;
    for (let x = 0; x < region.width; x++, i++) {
      if (only && !only[i]) continue;
      const o = i * 4;
      out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
      const px = region.x + x + 0.5;
      const w = weight[i]!;
      let qx = px,
        qy = py;
      if (w > 0) {
        // cos and sin of a turn under 3° by their series (exact to 1e-8 px here).
        const a = theta * w;
        const a2 = a * a;
        const c = 1 - a2 / 2 + (a2 * a2) / 24,
          sn = a - (a * a2) / 6;
        const dx = px - px0;
        qx = px0 + c * dx + sn * dy;
        qy = py0 - sn * dx + c * dy;
        if (nodShare) qy += nodShare * dy * w;
      }
      if (brow) {
        const b = browBump[i]!;
        if (b > 0) qy += brow * b;
      }
      const u = qx - srcX - 0.5,
        v = qy - srcY - 0.5;
      if (u < bx0 || u > bx1 || v < by0 || v > by1) continue;
      const x0 = Math.floor(u),
        y0 = Math.floor(v);
      const fx = u - x0,
        fy = v - y0;
      let r = 0,
        g = 0,
        bl = 0,
        al = 0;
      if (x0 >= 0 && y0 >= 0 && x0 + 1 < sw && y0 + 1 < sh) {
        // All four taps inside the source (nearly always).
        const i00 = (y0 * sw + x0) * 4,
          i10 = i00 + 4,
          i01 = i00 + sw * 4,
          i11 = i01 + 4;
        const a00 = s[i00 + 3]! * (1 - fx) * (1 - fy),
          a10 = s[i10 + 3]! * fx * (1 - fy),
          a01 = s[i01 + 3]! * (1 - fx) * fy,
          a11 = s[i11 + 3]! * fx * fy;
        al = a00 + a10 + a01 + a11;
        if (al < 0.5) continue;
        r = s[i00]! * a00 + s[i10]! * a10 + s[i01]! * a01 + s[i11]! * a11;
        g = s[i00 + 1]! * a00 + s[i10 + 1]! * a10 + s[i01 + 1]! * a01 + s[i11 + 1]! * a11;
        bl = s[i00 + 2]! * a00 + s[i10 + 2]! * a10 + s[i01 + 2]! * a01 + s[i11 + 2]! * a11;
      } else {
        for (let k = 0; k < 4; k++) {
          const xx = x0 + (k & 1),
            yy = y0 + (k >> 1);
          if (xx < 0 || yy < 0 || xx >= sw || yy >= sh) continue;
          const si = (yy * sw + xx) * 4;
          const sa = s[si + 3]! * (k & 1 ? fx : 1 - fx) * (k >> 1 ? fy : 1 - fy);
          r += s[si]! * sa;
          g += s[si + 1]! * sa;
          bl += s[si + 2]! * sa;
          al += sa;
        }
      }
      if (al < 0.5) continue;
      out[o] = r / al + 0.5;
      out[o + 1] = g / al + 0.5;
      out[o + 2] = bl / al + 0.5;
      out[o + 3] = al + 0.5;
    }
  }
}

/** `mask` (width x height, 0/1) widened by `by` px in every direction (a square's reach). */
export function widen(mask: Uint8Array, width: number, height: number, by: number): Uint8Array {
  /** One pass along lines: marks every pixel within `by` of a marked one on its line. */
  const pass = (from: Uint8Array, count: number, length: number, at: (line: number, k: number) => number) => {
    const to = new Uint8Array(from.length);
    const before = new Float64Array(length);
    for (let line = 0; line < count; line++) {
      let last = -Infinity;
      for (let k = 0; k < length; k++) {
        if (from[at(line, k)]) last = k;
        before[k] = k - last;
      }
      let next = Infinity;
      for (let k = length - 1; k >= 0; k--) {
        if (from[at(line, k)]) next = k;
        if (Math.min(before[k]!, next - k) <= by) to[at(line, k)] = 1;
      }
    }
    return to;
  };
  const rows = pass(mask, height, width, (y, x) => y * width + x);
  return pass(rows, width, height, (x, y) => y * width + x);
}
