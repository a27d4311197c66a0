import { apiOrigin } from '../api.ts';
import { botCurlCommand, DRAWN_LAYERS, suggestUid } from '../bot-form.ts';
import { botDraft, botFormError, botProblems, botProblemsAt, botSubmitting, setBotDraft, submitBot } from '../bot-state.ts';
import { humanize, POSITIONS } from '../options.ts';
import { bots, inboxUrl } from '../state.ts';
import { FieldError, invalidProps } from './FieldError.tsx';
import { FileDrop } from './FileDrop.tsx';
import { VideoSource } from './VideoSource.tsx';
import { VoicePicker } from './VoicePicker.tsx';

const at = botProblemsAt;
const PLACED = new Set([
  'uid',
  'name',
  'description',
  'voice',
  'default_position',
  'webhook',
  'image',
  'image_url',
  'video',
  'video_url',
  'video_upload',
  'consent',
  ...DRAWN_LAYERS.map((l) => l.field),
]);

/**
 * "Make a bot": from a photo (dropped, chosen, or by URL), from drawn PNG layers, or from a recording of a person
 * (a file, or the webcam's), with a name, a uid suggested from it, a voice and a default position. Sent as
 * PUT /v1/bot/{uid} (multipart; a recording is uploaded first and named by its id); the bot then shows in the
 * gallery as preparing until it is ready or failed.
 */
export function BotMaker() {
  const draft = botDraft.value;
  const replacing = bots.value.some((b) => b.uid === draft.uid && b.built_in === false);
  const unplaced = botProblems.value.filter((p) => !PLACED.has(p.path));
  return (
    <section class="card maker" aria-labelledby="maker-title">
      <h3 id="maker-title">Make a bot</h3>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submitBot();
        }}
      >
        <fieldset class="source">
          <legend>Made from</legend>
          <label class="check">
            <input type="radio" name="bot-source" checked={draft.source === 'photo'} onChange={() => setBotDraft({ source: 'photo' })} />A photo of a
            face
          </label>
          <label class="check">
            <input type="radio" name="bot-source" checked={draft.source === 'drawn'} onChange={() => setBotDraft({ source: 'drawn' })} />
            Drawn bot (PNG layers)
          </label>
          <label class="check">
            <input type="radio" name="bot-source" checked={draft.source === 'video'} onChange={() => setBotDraft({ source: 'video' })} />A video of a
            person
          </label>
        </fieldset>

        {draft.source === 'video' ? (
          <VideoSource />
        ) : draft.source === 'photo' ? (
          <div class="row">
            <FileDrop
              id="bot-image"
              label="Photo"
              accept="image/jpeg,image/png,image/webp"
              hint="a JPEG, PNG or WebP photo (up to 10 MB; about 4 MB on AWS)"
              file={draft.image}
              onFile={(image) => setBotDraft({ image })}
              path="image"
              at={at}
            />
            <label for="bot-image-url">Or the photo's URL</label>
            <input
              id="bot-image-url"
              type="url"
              inputMode="url"
              placeholder="https://…"
              value={draft.imageUrl}
              disabled={draft.image !== null}
              onInput={(e) => setBotDraft({ imageUrl: e.currentTarget.value })}
              {...invalidProps('bot-image-url-error', 'image_url', at)}
            />
            <FieldError id="bot-image-url-error" path="image_url" at={at} />
          </div>
        ) : (
          <div class="row layers">
            <p class="help">
              Same-size PNGs with transparency: the face with its mouth closed and open; optionally half open, with eyes closed, and the mouth shapes
              of speech (rounded, spread wide, lower lip to the upper teeth), each drawn at its most open.
            </p>
            {DRAWN_LAYERS.map((layer) => (
              <FileDrop
                id={`bot-${layer.field.replace('_', '-')}`}
                label={`${layer.label}${layer.required ? '' : ' (optional)'}`}
                accept="image/png"
                hint="a PNG"
                file={draft.layers[layer.field] ?? null}
                onFile={(file) => {
                  const layers = { ...draft.layers };
                  if (file) layers[layer.field] = file;
                  else delete layers[layer.field];
                  setBotDraft({ layers });
                }}
                path={layer.field}
                at={at}
              />
            ))}
          </div>
        )}

        <div class="row two">
          <div>
            <label for="bot-name">Name</label>
            <input
              id="bot-name"
              value={draft.name}
              maxLength={100}
              onInput={(e) => {
                const name = e.currentTarget.value;
                setBotDraft(draft.uidEdited ? { name } : { name, uid: suggestUid(name) });
              }}
              {...invalidProps('bot-name-error', 'name', at)}
            />
            <FieldError id="bot-name-error" path="name" at={at} />
          </div>
          <div>
            <label for="bot-uid">uid</label>
            <input
              id="bot-uid"
              value={draft.uid}
              maxLength={64}
              spellcheck={false}
              autoCapitalize="off"
              onInput={(e) => setBotDraft({ uid: e.currentTarget.value, uidEdited: true })}
              aria-describedby={`bot-uid-help${at('uid').length ? ' bot-uid-error' : ''}`}
              aria-invalid={at('uid').length > 0 || undefined}
            />
            <p class="help" id="bot-uid-help">
              {replacing ? 'You have a bot with this uid: sending replaces it.' : 'Suggested from the name: 3-64 of a-z, 0-9, _ and -.'}
            </p>
            <FieldError id="bot-uid-error" path="uid" at={at} />
          </div>
        </div>

        <label for="bot-description">Description (optional)</label>
        <input
          id="bot-description"
          value={draft.description}
          maxLength={500}
          onInput={(e) => setBotDraft({ description: e.currentTarget.value })}
          {...invalidProps('bot-description-error', 'description', at)}
        />
        <FieldError id="bot-description-error" path="description" at={at} />

        <div class="row two">
          <div>
            <VoicePicker
              id="bot-voice"
              value={draft.voice}
              defaultLabel="The API's default voice"
              onChange={(voice) => setBotDraft({ voice })}
              invalid={invalidProps('bot-voice-error', 'voice', at)}
            />
            <FieldError id="bot-voice-error" path="voice" at={at} />
          </div>
          <div>
            <label for="bot-position">Default position</label>
            <select
              id="bot-position"
              value={draft.defaultPosition}
              onChange={(e) => setBotDraft({ defaultPosition: e.currentTarget.value })}
              {...invalidProps('bot-position-error', 'default_position', at)}
            >
              <option value="">The API's default</option>
              {POSITIONS.map((p) => (
                <option value={p}>{humanize(p)}</option>
              ))}
            </select>
            <FieldError id="bot-position-error" path="default_position" at={at} />
          </div>
        </div>

        <label for="bot-webhook">Webhook URL (optional)</label>
        <input
          id="bot-webhook"
          type="url"
          inputMode="url"
          placeholder="https://… (gets bot.ready or bot.failed)"
          value={draft.webhook}
          onInput={(e) => setBotDraft({ webhook: e.currentTarget.value })}
          aria-describedby="bot-webhook-help"
          {...invalidProps('bot-webhook-error', 'webhook', at)}
        />
        <p class="help" id="bot-webhook-help">
          Told when the bot is ready or failed.{' '}
          {inboxUrl.value && draft.webhook !== inboxUrl.value && (
            <button type="button" class="link" onClick={() => setBotDraft({ webhook: inboxUrl.value })}>
              Use my webhook inbox
            </button>
          )}
        </p>
        <FieldError id="bot-webhook-error" path="webhook" at={at} />

        <details class="bot-curl">
          <summary>The same request with curl</summary>
          <pre aria-label="Bot curl command" tabIndex={0}>
            <code>{botCurlCommand(apiOrigin(), draft)}</code>
          </pre>
        </details>

        {botFormError.value && (
          <div class="notice error" role="alert">
            <p>{botFormError.value}</p>
            {unplaced.length > 0 && (
              <ul>
                {unplaced.map((p) => (
                  <li>
                    <code>{p.path}</code>: {p.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        <button type="submit" class="primary" disabled={botSubmitting.value}>
          {botSubmitting.value ? 'Sending…' : replacing ? 'Replace bot' : 'Make bot'}
        </button>
      </form>
    </section>
  );
}
