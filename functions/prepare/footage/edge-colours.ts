/**
 * The person's own colours carried out across the edge of their matte (what compositors call colour
 * decontamination). Where the matte is unsure, a pixel of the recording mixes the person with the backdrop behind
 * them: hair against a bright window is light at its edge, and laid over another background that edge shows as a
 * light rim. Each such pixel takes instead the mean colour of the pixels the matte is sure are the person, within
 * the smallest of a few radii that holds any; pixels the matte is sure of keep their own, and the matte's faint
 * outer tail (mostly backdrop) takes the person's colour only in its proportion. The matte itself is not changed:
 * the edge is as soft as before, in the person's colours.
 */

/** The matte's value (0-255) from which a pixel is surely the person and keeps its colour. */
const SURE_PERSON = 248;
/**
 * The radii searched for the person's colours, as fractions of the frame's height (2, 6, 14 and 35 px at 700): the
 * last reaches past the matte's faint outer tail, so no pixel of it keeps the backdrop's colour beside one that took
 * the person's (a step where the search ended).
 */
const RADII = [0.003, 0.008, 0.02, 0.05] as const;
/**
 * Under this matte value a pixel takes the person's colour only in its proportion, the rest its own: the very end
 * of the matte's faint outer tail fades into the backdrop's colour rather than stop at a shade of the person's.
 */
const FULL_COLOUR_FROM = 16;

/**
 * Gives frames of one size the person's colours across their matte's edge, with its working
 * arrays made once for all of them: a loop's frames are hundreds of megabytes of them otherwise.
 */
export class EdgeColours {
  private readonly sure: Float32Array;
  private readonly colour: readonly [Float32Array, Float32Array, Float32Array];
  private readonly sums: readonly Float32Array[];
  private readonly across: Float32Array;
  private readonly done: Uint8Array;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {
    const n = width * height;
    this.sure = new Float32Array(n);
    this.colour = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
    this.sums = Array.from({ length: 4 }, () => new Float32Array(n));
    this.across = new Float32Array(n);
    this.done = new Uint8Array(n);
  }

  /**
   * `rgba` (the frame, four bytes a pixel) with every pixel whose `alpha` is under SURE_PERSON given the person's
   * colour around it, where the person is within reach; a new buffer. Alpha bytes are copied unchanged.
   */
  of(rgba: Buffer, alpha: Uint8Array): Buffer {
    const { width, height, sure, colour, sums, done } = this;
    const n = width * height;
    const out = Buffer.from(rgba);
    let unsure = 0;
    for (let i = 0; i < n; i++) {
      const isSure = alpha[i]! >= SURE_PERSON;
      sure[i] = isSure ? 1 : 0;
      if (!isSure) unsure++;
      for (let k = 0; k < 3; k++) colour[k]![i] = isSure ? rgba[4 * i + k]! : 0;
    }
    if (unsure === 0 || unsure === n) return out;
    done.fill(0);
    for (const fraction of RADII) {
      const radius = Math.max(1, Math.round(fraction * height));
      const [weight, ...channels] = [sure, ...colour].map((values, c) => this.boxSum(values, radius, sums[c]!));
      for (let i = 0; i < n; i++) {
        const a = alpha[i]!;
        if (done[i] || a >= SURE_PERSON || a === 0 || weight![i]! < 1) continue;
        const share = Math.min(1, a / FULL_COLOUR_FROM);
        for (let k = 0; k < 3; k++) out[4 * i + k] = Math.round(share * (channels[k]![i]! / weight![i]!) + (1 - share) * rgba[4 * i + k]!);
        done[i] = 1;
      }
    }
    return out;
  }

  /** The sum of `values` over the (2 radius + 1)-square around each pixel, clipped at the frame's edges, into `out`. */
  private boxSum(values: Float32Array, radius: number, out: Float32Array): Float32Array {
    const { width, height, across } = this;
    for (let y = 0; y < height; y++) {
      const row = y * width;
      let sum = 0;
      for (let x = 0; x < Math.min(radius, width); x++) sum += values[row + x]!;
      for (let x = 0; x < width; x++) {
        if (x + radius < width) sum += values[row + x + radius]!;
        if (x - radius - 1 >= 0) sum -= values[row + x - radius - 1]!;
        across[row + x] = sum;
      }
    }
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let y = 0; y < Math.min(radius, height); y++) sum += across[y * width + x]!;
      for (let y = 0; y < height; y++) {
        if (y + radius < height) sum += across[(y + radius) * width + x]!;
        if (y - radius - 1 >= 0) sum -= across[(y - radius - 1) * width + x]!;
        out[y * width + x] = sum;
      }
    }
    return out;
  }
}
