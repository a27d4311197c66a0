/**
 * RGB with a hole (`hole`: 0..1 a pixel, 1 wholly missing) filled by push-pull from the pixels around it: the
 * backdrop without the person (a swaying figure uncovers backdrop, not a second outline of itself), a mouth's lips
 * without its teeth.
 */
export function fillHole(rgb: Buffer, hole: Float32Array, width: number, height: number): Buffer {
  const levels: { w: number; h: number; c: Float32Array; k: Float32Array }[] = [];
  let c = new Float32Array(width * height * 3);
  let k = new Float32Array(width * height);
  for (let i = 0; i < width * height; i++) {
    k[i] = 1 - hole[i]!;
    for (let n = 0; n < 3; n++) c[i * 3 + n] = rgb[i * 3 + n]!;
  }
  let w = width,
    h = height;
  levels.push({ w, h, c, k });
  while (w > 2 && h > 2) {
    const nw = Math.ceil(w / 2),
      nh = Math.ceil(h / 2);
    const nc = new Float32Array(nw * nh * 3),
      nk = new Float32Array(nw * nh);
    for (let y = 0; y < nh; y++) {
      for (let x = 0; x < nw; x++) {
        let sk = 0;
        const sc = [0, 0, 0];
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ] as const) {
          const xx = Math.min(w - 1, 2 * x + dx),
            yy = Math.min(h - 1, 2 * y + dy);
          const kk = k[yy * w + xx]!;
          sk += kk;
          for (let n = 0; n < 3; n++) sc[n]! += c[(yy * w + xx) * 3 + n]! * kk;
        }
        nk[y * nw + x] = Math.min(1, sk);
        for (let n = 0; n < 3; n++) nc[(y * nw + x) * 3 + n] = sk > 0 ? sc[n]! / sk : 0;
      }
    }
    w = nw;
    h = nh;
    c = nc;
    k = nk;
    levels.push({ w, h, c, k });
  }
  for (let l = levels.length - 2; l >= 0; l--) {
    const fine = levels[l]!,
      coarse = levels[l + 1]!;
    for (let y = 0; y < fine.h; y++) {
      for (let x = 0; x < fine.w; x++) {
        const i = y * fine.w + x;
        const kk = fine.k[i]!;
        if (kk >= 1) continue;
        // Bilinear from the coarser level.
        const cx = Math.min(coarse.w - 1, Math.max(0, (x + 0.5) / 2 - 0.5)),
          cy = Math.min(coarse.h - 1, Math.max(0, (y + 0.5) / 2 - 0.5));
        const x0 = Math.floor(cx),
          y0 = Math.floor(cy),
          x1 = Math.min(coarse.w - 1, x0 + 1),
          y1 = Math.min(coarse.h - 1, y0 + 1);
        const fx = cx - x0,
          fy = cy - y0;
        for (let n = 0; n < 3; n++) {
          const v =
            (coarse.c[(y0 * coarse.w + x0) * 3 + n]! * (1 - fx) + coarse.c[(y0 * coarse.w + x1) * 3 + n]! * fx) * (1 - fy) +
            (coarse.c[(y1 * coarse.w + x0) * 3 + n]! * (1 - fx) + coarse.c[(y1 * coarse.w + x1) * 3 + n]! * fx) * fy;
          fine.c[i * 3 + n] = fine.c[i * 3 + n]! * kk + v * (1 - kk);
        }
        fine.k[i] = 1;
      }
    }
  }
  return Buffer.from(levels[0]!.c.map((v) => Math.max(0, Math.min(255, Math.round(v)))));
}
