/**
 * The card every presenter stands on: its geometry on the look's canvas (one source for the built-in art, the
 * look builders and the manifests they write) and the coverage of its rounded rectangle.
 */

/** A look's canvas, canvas units. */
export const CANVAS: Readonly<{ width: number; height: number }> = { width: 520, height: 600 };
/** The card on it, canvas units: a rounded rectangle. */
export const CARD: Readonly<{ x: number; y: number; width: number; height: number; radius: number }> = {
  x: 24,
  y: 20,
  width: 472,
  height: 556,
  radius: 40,
};

/** A rounded rectangle by its edges (x0, y0)-(x1, y1) and its corners' radius. */
export interface RoundedBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  radius: number;
}

/** How far (px, py) lies outside the rounded rectangle's edge (negative inside): anti-aliased coverage is 0.5 minus it, clamped. */
export function outsideRoundedBox(px: number, py: number, box: RoundedBox): number {
  const { x0, y0, x1, y1, radius: r } = box;
  const qx = Math.max(x0 + r - px, 0, px - (x1 - r));
  const qy = Math.max(y0 + r - py, 0, py - (y1 - r));
  return qx > 0 && qy > 0 ? Math.hypot(qx, qy) - r : Math.max(x0 - px, px - x1, y0 - py, py - y1);
}

/** Coverage 0..1 of a pixel whose distance outside the edge is `outside` px. */
export const coverageOf = (outside: number) => Math.min(1, Math.max(0, 0.5 - outside));

const CARD_EDGES: RoundedBox = { x0: CARD.x, y0: CARD.y, x1: CARD.x + CARD.width, y1: CARD.y + CARD.height, radius: CARD.radius };

/** Coverage of the card's rounded rectangle (CARD) at pixel (x, y) of a layer of `density` pixels per canvas unit. */
export function cardAlpha(x: number, y: number, density = 1): number {
  const outside = outsideRoundedBox((x + 0.5) / density, (y + 0.5) / density, CARD_EDGES);
  return coverageOf(outside * density);
}
