/** Where a clip's presenter stands and how big it is when the caller leaves that out (choices.ts presenterLayoutOf). */
import { describe, expect, it } from 'vitest';
import { presenterLayoutOf } from '#domain/choices';

describe('presenterLayoutOf', () => {
  it('makes the presenter the subject when the clip says nothing of its picture: full, standing in the middle', () => {
    expect(presenterLayoutOf({}, 'bottom-right')).toEqual({ position: 'bottom-center', botSize: 'full' });
  });

  it("keeps the bot's corner at medium over a caller's background, or where the caller put it", () => {
    expect(presenterLayoutOf({ background: 'https://e.com/b.mp4' }, 'bottom-right')).toEqual({ position: 'bottom-right', botSize: 'medium' });
    expect(presenterLayoutOf({ bot_position: 'top-left' }, 'bottom-right')).toEqual({ position: 'top-left', botSize: 'medium' });
  });

  it('keeps a size the caller gave, at the position given or the bot’s own', () => {
    expect(presenterLayoutOf({ bot_size: 'large' }, 'bottom-left')).toEqual({ position: 'bottom-left', botSize: 'large' });
    expect(presenterLayoutOf({ bot_size: 'full', bot_position: 'center-right' }, 'bottom-left')).toEqual({
      position: 'center-right',
      botSize: 'full',
    });
    expect(presenterLayoutOf({ bot_size: 'medium', background: 'https://e.com/b.mp4' }, 'center')).toEqual({ position: 'center', botSize: 'medium' });
  });

  it("keeps a video bot in its corner over nothing of the caller's: its recording's frame is not carried to the edges", () => {
    expect(presenterLayoutOf({}, 'bottom-right', true)).toEqual({ position: 'bottom-right', botSize: 'medium' });
    expect(presenterLayoutOf({ bot_size: 'full' }, 'bottom-right', true)).toEqual({ position: 'bottom-right', botSize: 'full' });
  });
});
