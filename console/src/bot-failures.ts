/**
 * What a person can do about a bot that failed, by its public code (the bot's `error.code`, `bot.failed`): the
 * "What to do" column of docs/video-bots.md and docs/bots.md, shown under the API's own message.
 */
import type { LookErrorCode } from '#domain/look';

type FailureCode = LookErrorCode | 'image_unavailable' | 'video_unavailable' | 'preparation_failed';

const WHAT_TO_DO: Record<FailureCode, string> = {
  image_invalid: 'Send a JPEG, PNG or WebP photo.',
  image_too_large: 'Send a smaller photo (at most 10 MB), or give its URL.',
  image_unavailable: 'Send the photo again.',
  no_face_found: 'Use a photo or a recording of one person facing the camera.',
  face_too_small: 'Come closer to the camera: the face must be at least 120 px wide.',
  video_invalid: 'Send an MP4, MOV or WebM recording.',
  video_too_short: 'Record at least 10 s (30 s to 2 minutes is best).',
  video_too_long: 'Keep the recording under 5 minutes (30 s to 2 minutes is best).',
  video_too_large: 'Send a shorter or smaller recording (at most 300 MB).',
  video_unavailable: 'Send the recording again, or give a public URL that answers.',
  several_faces: 'Film one person alone.',
  face_turned_away: 'Look into the camera for most of the recording.',
  face_lost: 'Stay in the frame: the face may leave it for at most 2 s.',
  mouth_never_closed:
    'Record again and include the listening pause: a few seconds still, facing the camera, with the lips closed (the mouth for m, b and p comes from it).',
  preparation_failed: 'Send the bot again; if it fails again, the preparation could not finish on our side.',
};

/** The advice for a failure code; null for a code this page does not know (the API's message still says why). */
export const whatToDo = (code: string): string | null => (code in WHAT_TO_DO ? WHAT_TO_DO[code as FailureCode] : null);
