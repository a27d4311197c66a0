import { describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { CALLER_RESENDS_AFTER_SECONDS, SWEEPER_RESENDS_AFTER_SECONDS } from '#domain/lost-events';

describe('when a lost event is sent again', () => {
  it('the sweeper first, a caller later: never two chains of attempts for one event', () => {
    expect(CALLER_RESENDS_AFTER_SECONDS).toBeGreaterThan(SWEEPER_RESENDS_AFTER_SECONDS);
  });

  it('the sweeper within a video deadline, so a lost event is re-queued while the video is still recent', () => {
    expect(SWEEPER_RESENDS_AFTER_SECONDS).toBeLessThan(limits.videoDeadlineSeconds);
  });
});
