/**
 * Test keys (`npm run keys -- create --test`): an account's test keys belong to its test account, a separate
 * account linked to it, so that nothing of one is ever found from the other (every record is keyed by its
 * account) and test videos never count against the live account's limits or usage. A test account's videos are
 * real renders of the same API, made cheap and unmistakable: 360p, a "TEST" mark on every clip, at most 60 s.
 */
import type { ClipSpec } from './clip.ts';
import { InvalidRequestError } from './errors.ts';
import type { TextOverlay } from './overlays.ts';
import type { Account } from './ports.ts';
import { type Shape, TEST_RESOLUTION } from './shape.ts';
import { type KeptSeconds, knownVideoSeconds } from './video-length.ts';

const testVideoLimits = {
  /**
   * A test video longer than this (all its clips together) is refused at create when its length is known then
   * (kept clips, breaks, transitions), else fails at assembly with test_video_too_long.
   */
  maxSeconds: 60,
  watermark: 'TEST',
} as const;

/** The mark drawn on every clip of a test video, over the whole clip, by the overlays' own layer. */
const TEST_WATERMARK: TextOverlay = { type: 'text', text: testVideoLimits.watermark, style: 'title', start: 0, position: 'top-left' };

export const isTestAccount = (account: Pick<Account, 'test'> | undefined): boolean => account?.test === true;

/** A test video's shape: the aspect ratio asked for, at the test resolution. */
export const testShape = (shape: Shape): Shape => ({ aspectRatio: shape.aspectRatio, resolution: TEST_RESOLUTION });

const isWatermark = (overlay: NonNullable<ClipSpec['overlays']>[number]) =>
  overlay.type === 'text' &&
  overlay.text === TEST_WATERMARK.text &&
  overlay.style === TEST_WATERMARK.style &&
  overlay.start === 0 &&
  overlay.end === undefined;

/** The clip with the TEST mark on it, once (a kept test clip carries it already). */
export function withWatermark(clip: ClipSpec): ClipSpec {
  if (clip.overlays?.some(isWatermark)) return clip;
  return { ...clip, overlays: [...(clip.overlays ?? []), TEST_WATERMARK] };
}

/**
 * How long one clip's recording may last in a video (limits.maxRecordedSpeechSeconds), or a test video's whole
 * length: a longer recording fails its clip at its probe, before a test key's render is paid for.
 */
export const recordingSecondsFor = (video: { test?: true }, liveSeconds: number): number =>
  video.test ? Math.min(liveSeconds, testVideoLimits.maxSeconds) : liveSeconds;

/** Why a test video may not be assembled (its clips last longer than test keys allow), or undefined. */
export function testVideoTooLong(clipSeconds: readonly number[]): string | undefined {
  const total = clipSeconds.reduce((sum, s) => sum + s, 0);
  if (total <= testVideoLimits.maxSeconds) return undefined;
  return `a test key's video lasts at most ${testVideoLimits.maxSeconds} s; this one's clips last ${total.toFixed(1)} s (use a live key)`;
}

/**
 * Refuses at create (400, `clips`) a test video whose clips are known to last longer than test keys allow, so that
 * the caller hears it now rather than after the renders. `keptSeconds(clip)`: a kept clip's stored length.
 */
export function refuseTestVideoKnownTooLong(clips: ClipSpec[], keptSeconds: KeptSeconds): void {
  const known = knownVideoSeconds(clips, keptSeconds);
  if (known <= testVideoLimits.maxSeconds) return;
  throw new InvalidRequestError([
    {
      path: 'clips',
      message: `a test key's video lasts at most ${testVideoLimits.maxSeconds} s; these clips last at least ${known.toFixed(1)} s (their kept clips, breaks and transitions); use a live key or fewer clips`,
    },
  ]);
}
