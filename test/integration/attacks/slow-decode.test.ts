/**
 * A decode that runs past its time is stopped, and stops costing CPU: libvips kills its own pipeline (sharp's
 * timeout), so a slow picture cannot keep a core busy after its preparation gave up on it.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode } from '#functions/prepare/image-input.ts';
import { LookError } from '#functions/prepare/look.ts';

let heavy: Buffer;
beforeAll(async () => {
  // The largest picture's side we accept, noise at full quality, progressive, no chroma subsampling: about 1.45 s
  // to decode on one core here (with 4:2:0 it was 0.85 s on a quiet machine: under the 1 s timeout, a flaky test).
  heavy = await sharp({
    create: { width: 6300, height: 6300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 100 } },
  })
    .jpeg({ progressive: true, quality: 100, chromaSubsampling: '4:4:4' })
    .toBuffer();
  sharp.concurrency(1);
}, 60_000);
afterAll(() => {
  sharp.concurrency(0);
});

describe('a decode past its time', () => {
  it('is stopped as image_invalid, and spends no more CPU once stopped', async () => {
    const started = Date.now();
    const refused = await decode(heavy, 4, 6300, 'image', 1).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(LookError);
    expect((refused as LookError).message).toMatch(/takes too long to decode/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const before = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const after = process.cpuUsage(before);
    expect((after.user + after.system) / 1000).toBeLessThan(150);
  }, 60_000);
});
