import { describe, expect, it } from 'vitest';
import { buildVideoEvent, toPublicVideo } from '#commons/presenters/video';
import { eventIdFor } from '#domain/video';
import { videoRecord } from './fixtures.ts';

const now = new Date('2025-01-01T12:05:00.000Z');
const links = { url: 'https://bucket.s3.amazonaws.com/videos/vid_123.mp4?X-Amz-Signature=abc', expiresAt: '2025-01-08T12:05:00.000Z' };

describe('buildVideoEvent', () => {
  it('describes a completed video', () => {
    expect(buildVideoEvent(videoRecord(), links, now)).toEqual({
      type: 'video.completed',
      timestamp: '2025-01-01T12:01:00.000Z',
      data: {
        video_id: 'vid_123',
        status: 'completed',
        create_video: true,
        test: false,
        aspect_ratio: '16:9',
        resolution: '720p',
        captions_mode: 'none',
        video_url: links.url,
        url_expires_at: links.expiresAt,
        duration_seconds: 7.3,
        size_bytes: 1_234_567,
        clips: [
          { index: 0, clip_name: 'intro', bot_uid: 'bot_0', duration_seconds: 4.2, status: 'rendered' },
          { index: 1, clip_name: 'outro', bot_uid: 'bot_1', duration_seconds: 3.1, status: 'rendered' },
        ],
      },
    });
  });

  it('gives a voice-only video an audio_url instead of a video_url', () => {
    const video = videoRecord({
      createVideo: false,
      output: {
        kind: 'audio',
        objectKey: 'videos/vid_123.mp3',
        contentType: 'audio/mpeg',
        durationSeconds: 7.3,
        sizeBytes: 90_000,
        clipDurations: [4.2, 3.1],
      },
    });
    const event = buildVideoEvent(video, links, now);
    expect(event.type).toBe('video.completed');
    expect(event.data.audio_url).toBe(links.url);
    expect(event.data).not.toHaveProperty('video_url');
    expect(event.data).toMatchObject({ create_video: false, size_bytes: 90_000, url_expires_at: links.expiresAt });
  });

  it('describes a failed video with its error and without any URL', () => {
    const video = videoRecord({
      status: 'failed',
      completedAt: undefined,
      output: undefined,
      clipResults: { '0': { status: 'rendered', durationSeconds: 4.2 }, '1': { status: 'failed' } },
      error: { code: 'background_unavailable', message: 'the background video could not be downloaded', clipIndex: 1 },
    });
    const event = buildVideoEvent(video, links, now);
    expect(event).toEqual({
      type: 'video.failed',
      timestamp: now.toISOString(),
      data: {
        video_id: 'vid_123',
        status: 'failed',
        create_video: true,
        test: false,
        aspect_ratio: '16:9',
        resolution: '720p',
        captions_mode: 'none',
        clips: [
          { index: 0, clip_name: 'intro', bot_uid: 'bot_0', duration_seconds: 4.2, status: 'rendered' },
          { index: 1, clip_name: 'outro', bot_uid: 'bot_1', duration_seconds: null, status: 'failed' },
        ],
        error: { code: 'background_unavailable', message: 'the background video could not be downloaded', clip_index: 1 },
      },
    });
  });

  it("shows each clip's own voice where its request named one, and the video's captions choice", () => {
    const base = videoRecord();
    const video = videoRecord({
      clips: [
        { ...base.clips[0]!, voice: 'espeak:es+f3', captions: 'burn' },
        { ...base.clips[1]!, captions: 'burn' },
      ],
    });
    const event = buildVideoEvent(video, links, now);
    expect(event.data.captions_mode).toBe('burn');
    expect(event.data.clips).toEqual([
      { index: 0, clip_name: 'intro', bot_uid: 'bot_0', voice: 'espeak:es+f3', duration_seconds: 4.2, status: 'rendered' },
      { index: 1, clip_name: 'outro', bot_uid: 'bot_1', duration_seconds: 3.1, status: 'rendered' },
    ]);
    const record = toPublicVideo(video, 'https://api.test');
    expect(record.captions).toBe('burn');
    expect(record.clips.map((clip) => clip.voice)).toEqual(['espeak:es+f3', undefined]);
    expect(record.clips[1]).not.toHaveProperty('voice');
    expect(toPublicVideo(base, 'https://api.test').captions).toBe('none');
  });

  it('leaves clip_index out of a failure that concerns no clip, and survives a missing error', () => {
    const timedOut = videoRecord({ status: 'failed', output: undefined, error: { code: 'deadline_exceeded', message: 'not finished in time' } });
    expect(buildVideoEvent(timedOut, {}, now).data.error).toEqual({ code: 'deadline_exceeded', message: 'not finished in time' });
    const bare = videoRecord({ status: 'failed', output: undefined, error: undefined });
    expect(buildVideoEvent(bare, {}, now).data.error).toMatchObject({ code: 'internal_error' });
  });

  it('leaves out the URL fields when no link is given', () => {
    const event = buildVideoEvent(videoRecord(), {}, now);
    expect(event.data).not.toHaveProperty('video_url');
    expect(event.data).not.toHaveProperty('url_expires_at');
  });

  it('refuses a video that is not finished', () => {
    expect(() => buildVideoEvent(videoRecord({ status: 'rendering' }), links, now)).toThrow(/not terminal/);
  });

  it('serialises to plain JSON (no undefined values)', () => {
    const event = buildVideoEvent(videoRecord(), links, now);
    expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });
});

describe('eventIdFor', () => {
  it('is stable per video and outcome', () => {
    expect(eventIdFor('vid_123', 'video.completed')).toBe('evt_vid_123_completed');
    expect(eventIdFor('vid_123', 'failed')).toBe('evt_vid_123_failed');
    expect(eventIdFor('vid_123', 'completed')).toBe(eventIdFor('vid_123', 'video.completed'));
  });
});
