/** A render stopped by its watchdog is told in words that fit the clip: a clip without a background is not told to change it. */
import { describe, expect, it } from 'vitest';
import { renderFailure } from '#functions/render/render-failure.ts';
import type { BackgroundMedia } from '#media/background-media';
import { MediaBudgetError } from '#media/media';

const at = { videoId: 'vid_1', clipIndex: 0 };
const messageOf = (error: unknown) => (error as { message: string }).message;

describe('render_timeout', () => {
  it('asks a clip without a background for a shorter clip or a smaller size, not another background', () => {
    const failure = renderFailure(new MediaBudgetError('budget', 2460), at, undefined);
    expect(failure).toMatchObject({ code: 'render_timeout' });
    expect(messageOf(failure)).toMatch(/a shorter clip or a smaller size/);
    expect(messageOf(failure)).not.toMatch(/background/);
    expect(messageOf(renderFailure(new MediaBudgetError('stall', 30), at, undefined))).not.toMatch(/background/);
  });

  it('names the background, the length and the size to a clip with one', () => {
    const background = new Promise<BackgroundMedia>(() => {});
    const message = messageOf(renderFailure(new MediaBudgetError('budget', 300), at, background));
    expect(message).toMatch(/a shorter clip, a smaller size, or a smaller or simpler background/);
    expect(messageOf(renderFailure(new MediaBudgetError('stall', 30), at, background))).toMatch(/background may be damaged/);
  });
});
