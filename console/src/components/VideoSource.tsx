import type { Problem } from '../api.ts';
import { botDraft, botProblemsAt, setBotDraft } from '../bot-state.ts';
import { FieldError } from './FieldError.tsx';
import { FileDrop } from './FileDrop.tsx';
import { VideoRecorder } from './VideoRecorder.tsx';

/** The recording's problems, wherever the page or the API put them (the page checks `video`, the API `video_upload`). */
const recordingAt = (path: string): Problem[] =>
  path === 'video' ? [...botProblemsAt('video'), ...botProblemsAt('video_upload'), ...botProblemsAt('video_url')] : botProblemsAt(path);

/**
 * A video bot's recording: a file dropped or chosen, or one made here with the webcam; then the consent the API
 * requires. The recording is previewed as a player in the drop box; it is uploaded only when the form is sent.
 */
export function VideoSource() {
  const draft = botDraft.value;
  const consentInvalid = botProblemsAt('consent').length > 0;
  return (
    <div class="row video-source">
      <p class="help">
        One person facing the camera, speaking naturally for 30 s to 2 minutes (at least 10 s), then a few seconds still with the lips closed. MP4,
        MOV or WebM, up to 300 MB; it goes straight to storage, not through the API.
      </p>
      <FileDrop
        id="bot-video"
        label="Recording"
        accept="video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm"
        hint="a recording (MP4, MOV or WebM)"
        file={draft.video}
        onFile={(video) => setBotDraft({ video, videoSeconds: null })}
        path="video"
        at={recordingAt}
      />
      <VideoRecorder onRecorded={({ file, seconds }) => setBotDraft({ video: file, videoSeconds: seconds })} />
      <label class="check consent">
        <input
          type="checkbox"
          checked={draft.consent}
          onChange={(e) => setBotDraft({ consent: e.currentTarget.checked })}
          aria-describedby={consentInvalid ? 'bot-consent-error' : undefined}
          aria-invalid={consentInvalid || undefined}
        />
        The person filmed agreed to be made into a bot that says what I write
      </label>
      <FieldError id="bot-consent-error" path="consent" at={botProblemsAt} />
    </div>
  );
}
