/**
 * What a video bot's recording lacks, found when it is prepared: the bot is ready and speaks, but shows a stand-in
 * where the person never made the shape or the pause (docs/video-bots.md, "What the preparation warns of"). Public:
 * `GET /v1/bot/{uid}` and the `bot.ready` event show them as `footage.warnings`, each with what to record to fix it.
 * The stand-ins are the lip sync's (functions/render/engine/lipsync.ts `mouthFor`: a shape the look lacks takes an
 * open level) and the rig's (mouth-samples.ts: a level the atlas lacks takes its nearest).
 */
import { type BotManifest, MIN_LOOP_SECONDS } from './look.ts';

export type FootageWarningCode = 'no_listening_pause' | 'no_rounded_lips' | 'no_spread_lips' | 'no_open_mouth' | 'face_unseen';

export interface FootageWarning {
  code: FootageWarningCode;
  message: string;
}

/** The open levels "ah" and the loud sounds take (the look's top two of its five: mouthLevels). */
const WIDE_OPEN = ['m3', 'm4'];
/** Unseen stretches shorter than this in all are not worth a warning (a blink of a turn). */
const UNSEEN_WARN_SECONDS = 0.5;

/** The warnings of a prepared recording's look, in a fixed order; none for a recording that shows everything. */
export function footageWarnings(manifest: Pick<BotManifest, 'mouthShapes' | 'footage'>): FootageWarning[] {
  const footage = manifest.footage;
  if (!footage) return [];
  const shapes = manifest.mouthShapes ?? [];
  const warnings: FootageWarning[] = [];
  if (!footage.listen)
    warnings.push({
      code: 'no_listening_pause',
      message:
        `the recording has no pause of ${MIN_LOOP_SECONDS} s or more with the mouth closed and still: at breaks and between clips the ` +
        'person keeps moving as when speaking; record a few seconds of listening, looking into the camera',
    });
  if (!shapes.includes('round'))
    warnings.push({
      code: 'no_rounded_lips',
      message:
        'the lips are never rounded in the recording: "oo" and "w" show a slightly open mouth, "o" a half-open one; ' +
        'say a few words such as "who", "you" and "go"',
    });
  if (!shapes.includes('wide'))
    warnings.push({
      code: 'no_spread_lips',
      message:
        'the lips are never spread in the recording: "ee" shows a slightly open mouth, "eh" and the "a" of "cat" a half-open one; ' +
        'say a few words such as "see", "three" and "cat"',
    });
  if (!footage.samples.some((sample) => WIDE_OPEN.includes(sample.frame)))
    warnings.push({
      code: 'no_open_mouth',
      message: 'the mouth never opens wide in the recording: "ah" and other open sounds show a half-open mouth; speak as you would to a room',
    });
  const unseenSeconds = (footage.unseen ?? []).reduce((sum, [from, to]) => sum + (to - from), 0) / footage.fps;
  if (unseenSeconds >= UNSEEN_WARN_SECONDS)
    warnings.push({
      code: 'face_unseen',
      message: `the face is turned away or hidden for ${unseenSeconds.toFixed(1)} s of the recording: where those frames are shown, the mouth is as filmed and does not say the new words; look into the camera throughout`,
    });
  return warnings;
}
