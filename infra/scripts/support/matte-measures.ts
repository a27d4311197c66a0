/**
 * What a video bot's matte is judged by (docs/video-bots.md, "Removing the background"), on its footage's frames:
 * the edge's change from frame to frame against the footage's own, how wide its soft edge is (a wide one is a halo
 * of the old backdrop), and whether the person is whole (face, hair above the brows, shoulders).
 */
import { eyeDistance, type Point } from '#domain/face-space';

/** The neutral grey the person is laid over to measure the edge's change. */
const BACKDROP = 128;
/** A pixel of the matte's edge: neither backdrop nor person (alpha 0-255). */
const isEdge = (a: number) => a > 25 && a < 230;
const luma = (rgba: Buffer, p: number) => 0.299 * rgba[p * 4]! + 0.587 * rgba[p * 4 + 1]! + 0.114 * rgba[p * 4 + 2]!;

/**
 * The edge's change between two frames: over the pixels on the matte's edge in either frame, the mean luma step of
 * the person laid over grey (`drawn`) and of the footage itself (`own`). A flickering matte makes `drawn` larger.
 */
export function edgeChange(
  before: { rgba: Buffer; alpha: Buffer },
  after: { rgba: Buffer; alpha: Buffer },
): { drawn: number; own: number; pixels: number } {
  let drawn = 0;
  let own = 0;
  let pixels = 0;
  for (let p = 0; p < after.alpha.length; p++) {
    const a0 = before.alpha[p]!;
    const a1 = after.alpha[p]!;
    if (!isEdge(a0) && !isEdge(a1)) continue;
    const f0 = luma(before.rgba, p);
    const f1 = luma(after.rgba, p);
    const c0 = (a0 * f0 + (255 - a0) * BACKDROP) / 255;
    const c1 = (a1 * f1 + (255 - a1) * BACKDROP) / 255;
    drawn += Math.abs(c1 - c0);
    own += Math.abs(f1 - f0);
    pixels++;
  }
  return { drawn: pixels ? drawn / pixels : 0, own: pixels ? own / pixels : 0, pixels };
}

/**
 * How wide the matte's soft edge is, px: its edge pixels over the length of its outline (the person's pixels with a
 * backdrop pixel beside them). A few px for a clean cut (loose hair's strands make it wider); a halo of the old
 * backdrop widens it.
 */
export function edgeWidth(alpha: Buffer, width: number, height: number): number {
  let soft = 0;
  let outline = 0;
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) {
      const p = y * width + x;
      const a = alpha[p]!;
      if (isEdge(a)) soft++;
      if (a >= 128 && (alpha[p - 1]! < 128 || alpha[p + 1]! < 128 || alpha[p - width]! < 128 || alpha[p + width]! < 128)) outline++;
    }
  return outline ? soft / outline : Infinity;
}

/**
 * The matte's least alpha (0-255) over the person's parts: the inner face (the brows' inner halves, eyes, nose,
 * lips: landmarks 19-24 and 27-67; a brow's outer end lies beyond the cheek's outline on a turned head), the hair or forehead 0.6 eye distances above the brows, and the shoulders on the frame's bottom row 1.5
 * eye distances either side of the chin.
 */
export function wholePerson(
  alpha: Buffer,
  width: number,
  height: number,
  landmarks: readonly Point[],
): { face: number; hair: number; shoulders: number } {
  const at = (x: number, y: number) =>
    alpha[Math.min(height - 1, Math.max(0, Math.round(y))) * width + Math.min(width - 1, Math.max(0, Math.round(x)))]!;
  const eye = eyeDistance(landmarks);
  let face = 255;
  for (let i = 19; i < 68; i++) if (i < 25 || i > 26) face = Math.min(face, at(landmarks[i]!.x, landmarks[i]!.y));
  const brows = { x: (landmarks[19]!.x + landmarks[24]!.x) / 2, y: (landmarks[19]!.y + landmarks[24]!.y) / 2 };
  const hair = at(brows.x, brows.y - 0.6 * eye);
  const chin = landmarks[8]!;
  const shoulders = Math.min(at(chin.x - 1.5 * eye, height - 2), at(chin.x + 1.5 * eye, height - 2));
  return { face, hair, shoulders };
}
