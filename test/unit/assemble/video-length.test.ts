/** A video's clips together last at most limits.maxVideoSeconds: ten 600-s recordings are refused, not assembled. */
import { describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { videoTooLong } from '#domain/video-length';

describe('videoTooLong', () => {
  it('takes 30 minutes of clips and refuses a second more, or ten 10-minute recordings', () => {
    expect(limits.maxVideoSeconds).toBe(1800);
    expect(videoTooLong([600, 600, 600])).toBeUndefined();
    expect(videoTooLong([600, 600, 601])).toMatch(/at most 1800 s; its clips last 1801.0 s/);
    expect(videoTooLong(Array.from({ length: limits.maxClips }, () => limits.maxRecordedSpeechSeconds))).toBeDefined();
  });
});
