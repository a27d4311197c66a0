/**
 * A clip's picture budget (limits.maxClipPicturePixels): the pixels its pictures declare, counted as each one's
 * header is read and before it is decoded, and the decodes themselves one at a time, so that a clip holds at most
 * one stranger's full-size picture in memory whatever it asks for.
 */
import { limits } from './limits.ts';

/** A clip's pictures declare more pixels in all than limits.maxClipPicturePixels. */
export class PictureBudgetExceededError extends Error {
  constructor(
    readonly pixels: number,
    readonly maxPixels: number,
  ) {
    super(`a clip's pictures declare ${pixels} pixels; at most ${maxPixels}`);
    this.name = 'PictureBudgetExceededError';
  }
}

export class PictureBudget {
  private used = 0;
  private turn: Promise<unknown> = Promise.resolve();
  /** Set once a picture was refused: the clip fails, so the decodes still waiting for their turn never start. */
  private exceeded?: PictureBudgetExceededError;

  constructor(readonly maxPixels: number = limits.maxClipPicturePixels) {}

  /** Counts a picture of `width` x `height` against the clip, or throws PictureBudgetExceededError (nothing counted). */
  claim(width: number, height: number): void {
    const total = this.used + width * height;
    if (total > this.maxPixels) throw (this.exceeded = new PictureBudgetExceededError(total, this.maxPixels));
    this.used = total;
  }

  /**
   * Runs `decode` once the clip's decodes before it have ended (failed or not); never, once a picture of the clip
   * was refused (it rejects with that refusal).
   */
  oneAtATime<T>(decode: () => Promise<T>): Promise<T> {
    const run = this.turn.then(() => {
      if (this.exceeded) throw this.exceeded;
      return decode();
    });
    this.turn = run.catch(() => undefined);
    return run;
  }
}
