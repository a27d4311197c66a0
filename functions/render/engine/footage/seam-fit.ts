/**
 * The colour match of a video bot's blend (./mouth-blend.ts): the plane fitted by least squares to the difference
 * between the frame and the mouth sample along the seam.
 */

/**
 * Below this spread of the seam's points (the smaller eigenvalue of their u, v covariance; face-space units, 1 the
 * lower face's size), a plane's slopes rest on points nearly on one line or one spot: the mean difference alone is
 * used (a standard deviation of 0.05 of the face's size across them). infra/scripts/measure/video-bot-measures.ts
 * reports every drawn frame's (docs/video-bots.md: far above it on two real recordings).
 */
const MIN_SEAM_SPREAD = 0.05 ** 2;

/**
 * The least-squares plane d = k0 + k1 u + k2 v of each channel's colour difference over the seam, u and v face-space
 * x and y centred on the lower face and scaled by its size (the blend clamps its value to MAX_SHIFT). Fewer points
 * than a plane needs, or points nearly on a line or a spot (MIN_SEAM_SPREAD), give the mean difference alone.
 */
export class SeamFit {
  /** Sums of 1, u, v, uu, uv, vv; then of d, du, dv per channel. */
  private readonly m = new Float64Array(6);
  private readonly r = new Float64Array(9);
  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {}

  add(fx: number, fy: number, dr: number, dg: number, db: number) {
    const u = fx / this.width - 0.5;
    const v = fy / this.height - 0.5;
    const { m, r } = this;
    m[0]! += 1;
    m[1]! += u;
    m[2]! += v;
    m[3]! += u * u;
    m[4]! += u * v;
    m[5]! += v * v;
    r[0]! += dr;
    r[1]! += dr * u;
    r[2]! += dr * v;
    r[3]! += dg;
    r[4]! += dg * u;
    r[5]! += dg * v;
    r[6]! += db;
    r[7]! += db * u;
    r[8]! += db * v;
  }

  /** The smaller eigenvalue of the points' u, v covariance: how far they spread across their narrower way. */
  spread(): number {
    const [n, su, sv, suu, suv, svv] = this.m as unknown as number[];
    const [mu, mv] = [su! / n!, sv! / n!];
    const [cuu, cuv, cvv] = [suu! / n! - mu * mu, suv! / n! - mu * mv, svv! / n! - mv * mv];
    return (cuu + cvv) / 2 - Math.hypot((cuu - cvv) / 2, cuv);
  }

  /** Channel `c`'s value of `plane` (solve's) at (fx, fy) of face space, in the same u, v as the points were added. */
  at(plane: Float64Array, fx: number, fy: number, c: number): number {
    return plane[3 * c]! + plane[3 * c + 1]! * (fx / this.width - 0.5) + plane[3 * c + 2]! * (fy / this.height - 0.5);
  }

  /** Each channel's plane: k0, k1, k2 of red, then green, then blue. */
  solve(): Float64Array {
    const [n, su, sv, suu, suv, svv] = this.m as unknown as number[];
    const det = n! * (suu! * svv! - suv! * suv!) - su! * (su! * svv! - suv! * sv!) + sv! * (su! * suv! - suu! * sv!);
    const flat = n! < 12 || this.spread() < MIN_SEAM_SPREAD;
    const planes = [0, 1, 2].map((c) => {
      const [d, du, dv] = [this.r[3 * c]!, this.r[3 * c + 1]!, this.r[3 * c + 2]!];
      if (flat) return [n! ? d / n! : 0, 0, 0];
      // Cramer's rule on the normal equations.
      const k0 = (d * (suu! * svv! - suv! * suv!) - su! * (du * svv! - suv! * dv) + sv! * (du * suv! - suu! * dv)) / det;
      const k1 = (n! * (du * svv! - suv! * dv) - d * (su! * svv! - suv! * sv!) + sv! * (su! * dv - du * sv!)) / det;
      const k2 = (n! * (suu! * dv - du * suv!) - su! * (su! * dv - du * sv!) + d * (su! * suv! - suu! * sv!)) / det;
      return [k0, k1, k2];
    });
    return Float64Array.from(planes.flat());
  }
}
