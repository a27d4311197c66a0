import { logger } from '#commons/logger';
import { JobFailedError } from '#domain/errors';
import type { BackgroundMedia } from '#media/background-media';
import { MediaBudgetError, MediaToolError } from '#media/media';
import { SpeechLongerThanRecordingError, SpeechTooLongError, SpokenTextTooLongError } from './engine/types.ts';

/** What a failed render means for the caller: a JobFailedError of theirs to fix, or the error as it is (retried). */
export function renderFailure(
  error: unknown,
  { videoId, clipIndex }: { videoId: string; clipIndex: number },
  background: Promise<BackgroundMedia> | undefined,
): unknown {
  if (error instanceof SpokenTextTooLongError)
    return new JobFailedError(
      'text_too_long',
      `its text, as said (the account's lexicon applied), is ${error.chars} characters; at most ${error.maxChars} can be said in one clip: shorten it or split it into more clips`,
    );
  if (error instanceof SpeechTooLongError)
    return new JobFailedError(
      'text_too_long',
      `its text takes ${Math.round(error.seconds)} s to say; a clip may speak for at most ${error.maxSeconds} s: split the text into more clips`,
    );
  if (error instanceof SpeechLongerThanRecordingError)
    return new JobFailedError(
      'speech_longer_than_recording',
      `with footage "as_recorded" the clip lasts ${error.clipSeconds.toFixed(1)} s and the bot's recording ${error.recordingSeconds.toFixed(1)} s: shorten the text, or leave footage out to loop the footage`,
    );
  // ffmpeg refused the caller's background part-way (it probed fine): their file, not our fault.
  if (background && !(error instanceof JobFailedError) && error instanceof MediaToolError && !error.signal)
    return new JobFailedError(
      'background_invalid',
      'the background could not be decoded to the end: it may be damaged, or use a codec we cannot read (H.264 MP4 works best)',
    );
  // Killed by the watchdog: as slow on every retry, so the clip fails now (not retried, not re-queued).
  if (!(error instanceof MediaBudgetError)) return error;
  logger.warn('render stopped by its watchdog', {
    video_id: videoId,
    clip_index: clipIndex,
    reason: error.reason,
    limit_s: error.limitSeconds,
  });
  // Only a clip with a background is told about its background: a long recording over a plain colour is slow by its length.
  if (error.reason === 'stall')
    return new JobFailedError(
      'render_timeout',
      background
        ? 'rendering stopped making progress and was stopped; the background may be damaged or too demanding to decode'
        : 'rendering stopped making progress and was stopped; one of its inputs (a recording, an image) may be damaged',
    );
  const fix = background
    ? 'use a shorter clip, a smaller size, or a smaller or simpler background (1920x1080 H.264 MP4 renders fastest)'
    : 'use a shorter clip or a smaller size';
  return new JobFailedError('render_timeout', `rendering took longer than its ${error.limitSeconds} s budget and was stopped; ${fix}`);
}
