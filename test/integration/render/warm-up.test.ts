/**
 * The render function's warm-up (functions/render/warm-up.ts) renders its short clip for real while the execution
 * environment initialises: a broken warm-up would only be logged, so this checks it completes and leaves nothing.
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logger } from '#commons/logger';
import { warmUpRender } from '#functions/render/warm-up.ts';

afterEach(() => vi.restoreAllMocks());

describe('the render warm-up', () => {
  it('renders its clip without a failure and removes its work dir', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const before = readdirSync(tmpdir()).filter((d) => d.startsWith('render-warm-up-')).length;
    await warmUpRender({ polly: false }, 110_000);
    expect(warn.mock.calls).toEqual([]);
    expect(info).toHaveBeenCalledWith('render warmed up', expect.objectContaining({ ms: expect.any(Number) }));
    expect(readdirSync(tmpdir()).filter((d) => d.startsWith('render-warm-up-')).length).toBe(before);
  }, 120_000);

  it("is waited for no longer than its limit (Lambda's INIT phase is short); the clip still finishes after", async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => {});
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => {});
    const started = performance.now();
    await warmUpRender({ polly: false }, 50);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(warn).toHaveBeenCalledWith('render warm-up still running; not waiting for it', { waitedMs: 50 });
    await vi.waitFor(() => expect(info).toHaveBeenCalledWith('render warmed up', expect.any(Object)), { timeout: 110_000, interval: 200 });
  }, 120_000);
});
