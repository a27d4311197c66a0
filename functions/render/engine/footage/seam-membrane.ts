/**
 * The seam's colour difference carried inward as a membrane: what a plane fitted along the seam leaves (a cheek
 * shaded otherwise than the sample's, the philtrum lit otherwise than its sides) spread over the mask's inside as
 * the smoothest surface that meets it at the seam, a harmonic function. Laying the sample with this correction is
 * Poisson image editing's seamless cloning (Pérez, Gangnet and Blake, SIGGRAPH 2003): the sample keeps its own
 * gradients and takes the frame's colour at its boundary (the membrane of the boundary's difference, as Farbman et
 * al. compute it for instant cloning, SIGGRAPH 2009). Solved on a coarse grid of face space, so a frame costs a few
 * thousand cell updates, not an iteration over its pixels.
 */

/** The grid's cells across the lower face; each is a square of face space. */
const CELLS_ACROSS = 16;
/** Gauss-Seidel sweeps with over-relaxation: enough for a grid this size to settle. */
const SWEEPS = 30;
const OVER_RELAXATION = 1.7;
/** Seam points a cell needs before its mean is trusted as the boundary's value. */
const MIN_POINTS = 2;
/** What the mask's weight at a cell's centre must reach for the membrane to be solved there. */
const INSIDE = 0.5;
/**
 * Boundary cells the membrane needs to be laid whole; with fewer (a face drawn very small: few seam points a cell)
 * it is laid in their proportion, so it fades in with the face's size rather than switching on at one size as a
 * spread of a cell or two's mean. A face at `small` in 720p gives about 50 (docs/video-bots.md).
 */
const FULL_BOUNDARY = 20;

/**
 * A membrane over face space (width x height px), one a frame: seam points are added (add), the inside solved from
 * them (solve), then read per pixel (at). At least 2 x 2 cells, however small the face.
 * @internal Exported for its tests.
 */
export class SeamMembrane {
  readonly cell: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly sums: Float32Array;
  private readonly counts: Float32Array;
  private readonly field: Float32Array;
  /** Per cell: 2 a boundary cell (its mean held), 1 solved, 0 outside (0 and not a neighbour). */
  private readonly kinds: Uint8Array;
  /** How much of the membrane is laid: its boundary cells' share of FULL_BOUNDARY, at most 1 (solve's). */
  private laid = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.cell = Math.max(2, width / CELLS_ACROSS);
    this.cols = Math.max(2, Math.ceil(width / this.cell));
    this.rows = Math.max(2, Math.ceil(height / this.cell));
    const cells = this.cols * this.rows;
    this.sums = new Float32Array(cells * 3);
    this.counts = new Float32Array(cells);
    this.field = new Float32Array(cells * 3);
    this.kinds = new Uint8Array(cells);
  }

  /** A seam point at (fx, fy) of face space and its difference, frame less (shifted) sample, per channel. */
  add(fx: number, fy: number, dr: number, dg: number, db: number) {
    const col = Math.min(this.cols - 1, Math.max(0, Math.floor(fx / this.cell)));
    const row = Math.min(this.rows - 1, Math.max(0, Math.floor(fy / this.cell)));
    const k = row * this.cols + col;
    this.counts[k]! += 1;
    this.sums[3 * k]! += dr;
    this.sums[3 * k + 1]! += dg;
    this.sums[3 * k + 2]! += db;
  }

  /**
   * Solves the membrane: cells with MIN_POINTS seam points hold their mean; cells whose centre the mask (`weightAt`,
   * face space) covers by INSIDE or more are solved as the mean of their neighbours in the grid (a neighbour
   * outside both counts as absent: the membrane meets the mask's edge flat). Fewer than FULL_BOUNDARY boundary
   * cells lay it in their proportion.
   */
  solve(weightAt: (fx: number, fy: number) => number) {
    const { cols, rows, cell, counts, sums, field, kinds } = this;
    let boundary = 0;
    for (let row = 0; row < rows; row++)
      for (let col = 0; col < cols; col++) {
        const k = row * cols + col;
        if (counts[k]! >= MIN_POINTS) {
          kinds[k] = 2;
          boundary++;
          for (let c = 0; c < 3; c++) field[3 * k + c] = sums[3 * k + c]! / counts[k]!;
        } else if (weightAt((col + 0.5) * cell, (row + 0.5) * cell) >= INSIDE) kinds[k] = 1;
      }
    this.laid = Math.min(1, boundary / FULL_BOUNDARY);
    for (let sweep = 0; sweep < SWEEPS; sweep++) for (let k = 0; k < kinds.length; k++) if (kinds[k] === 1) this.relax(k);
  }

  /** One cell moved toward the mean of its neighbours in the grid that are not outside. */
  private relax(k: number) {
    const { cols, field, kinds } = this;
    const col = k % cols;
    let n = 0;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let side = 0; side < 4; side++) {
      const j = side === 0 ? (col > 0 ? k - 1 : -1) : side === 1 ? (col < cols - 1 ? k + 1 : -1) : side === 2 ? k - cols : k + cols;
      if (j < 0 || j >= kinds.length || !kinds[j]) continue;
      n++;
      r += field[3 * j]!;
      g += field[3 * j + 1]!;
      b += field[3 * j + 2]!;
    }
    if (!n) return;
    field[3 * k] = field[3 * k]! + OVER_RELAXATION * (r / n - field[3 * k]!);
    field[3 * k + 1] = field[3 * k + 1]! + OVER_RELAXATION * (g / n - field[3 * k + 1]!);
    field[3 * k + 2] = field[3 * k + 2]! + OVER_RELAXATION * (b / n - field[3 * k + 2]!);
  }

  /**
   * The membrane at (fx, fy) of face space, into `out` (R, G, B): bilinear between the cells' centres, over the cells
   * that are not outside (so it stays flat up to the mask's edge rather than falling to 0), 0 where all four are;
   * in the share solve laid.
   */
  at(fx: number, fy: number, out: number[]) {
    const { cols, rows, cell, field, kinds } = this;
    const gx = Math.min(cols - 1, Math.max(0, fx / cell - 0.5));
    const gy = Math.min(rows - 1, Math.max(0, fy / cell - 0.5));
    const c0 = Math.min(cols - 2, Math.floor(gx));
    const r0 = Math.min(rows - 2, Math.floor(gy));
    const tx = gx - c0;
    const ty = gy - r0;
    const k = r0 * cols + c0;
    const w00 = kinds[k] ? (1 - tx) * (1 - ty) : 0;
    const w01 = kinds[k + 1] ? tx * (1 - ty) : 0;
    const w10 = kinds[k + cols] ? (1 - tx) * ty : 0;
    const w11 = kinds[k + cols + 1] ? tx * ty : 0;
    const weights = w00 + w01 + w10 + w11;
    const total = weights && this.laid ? weights / this.laid : 0;
    for (let c = 0; c < 3; c++)
      out[c] = total
        ? (w00 * field[3 * k + c]! + w01 * field[3 * (k + 1) + c]! + w10 * field[3 * (k + cols) + c]! + w11 * field[3 * (k + cols + 1) + c]!) / total
        : 0;
  }
}
