import { CAPTIONS, FRAME_SHAPES, frameSize, LIMITS, RESOLUTIONS } from '../options.ts';
import { charCount } from '../request.ts';
import { addClip, bots, composer, formError, inboxUrl, problems, setDraft, submit, submitting, webhookEdited } from '../state.ts';
import { ClipEditor } from './ClipEditor.tsx';
import { CurlPreview } from './CurlPreview.tsx';
import { FieldError, invalidProps } from './FieldError.tsx';
import { BrandOptions, MusicOptions } from './SceneOptions.tsx';

/** The picture's options: shape, resolution and captions (a voice-only result has no picture). */
function PictureOptions() {
  const draft = composer.value;
  const size = frameSize(draft.aspectRatio, draft.resolution);
  return (
    <div class="row picture">
      <div class="row three">
        <div>
          <label for="aspect-ratio">Aspect ratio</label>
          <select
            id="aspect-ratio"
            value={draft.aspectRatio}
            onChange={(e) => setDraft({ aspectRatio: e.currentTarget.value })}
            {...invalidProps('aspect_ratio-error', 'aspect_ratio')}
          >
            {FRAME_SHAPES.map((s) => (
              <option value={s.id}>{s.label}</option>
            ))}
          </select>
          <FieldError id="aspect_ratio-error" path="aspect_ratio" />
        </div>
        <div>
          <label for="resolution">Resolution</label>
          <select
            id="resolution"
            value={draft.resolution}
            onChange={(e) => setDraft({ resolution: e.currentTarget.value })}
            {...invalidProps('resolution-error', 'resolution')}
          >
            {RESOLUTIONS.map((r) => (
              <option value={r.id}>{r.label}</option>
            ))}
          </select>
          <FieldError id="resolution-error" path="resolution" />
        </div>
        <div>
          <label for="captions">Captions</label>
          <select
            id="captions"
            value={draft.captions}
            onChange={(e) => setDraft({ captions: e.currentTarget.value })}
            {...invalidProps('captions-error', 'captions')}
          >
            {CAPTIONS.map((c) => (
              <option value={c.id}>{c.label}</option>
            ))}
          </select>
          <FieldError id="captions-error" path="captions" />
        </div>
      </div>
      <p class="help">
        Frame: {size.width}x{size.height}. Every video comes with its captions as VTT and SRT files.
      </p>
      <BrandOptions />
    </div>
  );
}

/** Video-level options: the webhook, voice only, and the picture's options. */
function VideoOptions() {
  const draft = composer.value;
  return (
    <fieldset class="card options">
      <legend>Video</legend>
      <div class="row">
        <label for="webhook">Webhook URL</label>
        <input
          id="webhook"
          type="url"
          inputMode="url"
          value={draft.webhook}
          onInput={(e) => {
            webhookEdited.value = true;
            setDraft({ webhook: e.currentTarget.value });
          }}
          aria-describedby="webhook-help"
          {...invalidProps('webhook-error', 'webhook')}
        />
        <p class="help" id="webhook-help">
          Where vidbot POSTs the signed event when the video is done.{' '}
          {draft.webhook !== inboxUrl.value && inboxUrl.value ? (
            <button
              type="button"
              class="link"
              onClick={() => {
                webhookEdited.value = false;
                setDraft({ webhook: inboxUrl.value });
              }}
            >
              Use my webhook inbox
            </button>
          ) : (
            'This is your webhook inbox: its events appear under “Webhook inbox”.'
          )}
        </p>
        <FieldError id="webhook-error" path="webhook" />
      </div>
      <label class="check">
        <input type="checkbox" checked={draft.voiceOnly} onChange={(e) => setDraft({ voiceOnly: e.currentTarget.checked })} />
        Voice only (one MP3, no video)
      </label>
      <FieldError id="create_video-error" path="create_video" />
      {!draft.voiceOnly && <PictureOptions />}
      <MusicOptions />
    </fieldset>
  );
}

export function Composer() {
  const draft = composer.value;
  const total = draft.clips.reduce((sum, c) => sum + (c.kind === 'new' ? charCount(c.text) : 0), 0);
  const unplaced = problems.value.filter(
    (p) =>
      !/^(webhook|create_video|aspect_ratio|resolution|captions|(logo|theme|music)(\.\w+)?|clips\[\d+\](\.\w+|\.overlays(\[\d+\](\.\w+)?)?)?)$/.test(
        p.path,
      ),
  );
  return (
    <section aria-labelledby="create-title" class="composer">
      <h2 id="create-title">Create a video</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div class="compose-grid">
          <div>
            <VideoOptions />
            {draft.clips.map((clip, index) => (
              <ClipEditor key={clip.id} clip={clip} index={index} count={draft.clips.length} />
            ))}
            <div class="below-clips">
              <button type="button" onClick={() => addClip()} disabled={draft.clips.length >= LIMITS.clips}>
                + Add clip
              </button>
              <span class={`help${total > LIMITS.textPerVideo ? ' warn' : ''}`}>
                {draft.clips.length} of {LIMITS.clips} clips · {total} / {LIMITS.textPerVideo} characters in all
              </span>
            </div>
            <FieldError id="clips-error" path="clips" />
          </div>
          <div class="side">
            <CurlPreview />
            {formError.value && (
              <div class="notice error" role="alert">
                <p>{formError.value}</p>
                {problems.value.length > 0 && (
                  <ul>
                    {problems.value.map((p) => (
                      <li>
                        <code>{p.path}</code>: {p.message}
                      </li>
                    ))}
                  </ul>
                )}
                {unplaced.length === 0 && problems.value.length > 0 && <p class="help">Each problem is also shown by its field.</p>}
              </div>
            )}
            {/* Until the bots are loaded no clip has its bot: a click would be refused beside fields that look filled. */}
            <button type="submit" class="primary big" disabled={submitting.value || bots.value.length === 0}>
              {submitting.value ? 'Sending…' : bots.value.length === 0 ? 'Loading the bots…' : 'Create video'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}
