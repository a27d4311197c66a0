import type { Bot } from '../api.ts';
import { BOT_SIZES, ENTRY_TRANSITIONS, EXIT_TRANSITIONS, frameShape, humanize, LIMITS } from '../options.ts';
import { type ClipDraft, charCount } from '../request.ts';
import { bots, composer, moveClip, problemsAt, removeClip, updateClip, voices } from '../state.ts';
import { describeVoice } from '../voices.ts';
import { FieldError, invalidProps } from './FieldError.tsx';
import { OverlayList } from './OverlayList.tsx';
import { PositionPicker } from './PositionPicker.tsx';
import { VoicePicker } from './VoicePicker.tsx';
import { VoiceRecorder } from './VoiceRecorder.tsx';

/** One clip of the composer. Every control's id carries the clip's local id; errors come by the clip's index. */
export function ClipEditor({ clip, index, count }: { clip: ClipDraft; index: number; count: number }) {
  const id = (field: string) => `clip-${clip.id}-${field}`;
  const path = (field: string) => `clips[${index}].${field}`;
  const err = (field: string) => ({ id: `${id(field)}-error`, path: path(field) });
  const set = (change: Partial<ClipDraft>) => updateClip(clip.id, change);
  const bot: Bot | undefined = bots.value.find((b) => b.uid === clip.botUid);
  const chars = charCount(clip.text);
  const title = `Clip ${index + 1}`;
  const textInvalid = problemsAt(path('text')).length > 0;

  return (
    <fieldset class="clip card" aria-label={title}>
      <legend>
        {title}
        {clip.name.trim() ? ` · ${clip.name.trim()}` : ''}
      </legend>
      <div class="clip-actions">
        <button type="button" onClick={() => moveClip(clip.id, -1)} disabled={index === 0} aria-label={`Move clip ${index + 1} up`}>
          ↑ Up
        </button>
        <button type="button" onClick={() => moveClip(clip.id, 1)} disabled={index === count - 1} aria-label={`Move clip ${index + 1} down`}>
          ↓ Down
        </button>
        <button type="button" class="danger" onClick={() => removeClip(clip.id)} disabled={count === 1} aria-label={`Remove clip ${index + 1}`}>
          Remove
        </button>
      </div>
      <FieldError id={`${id('clip')}-error`} path={`clips[${index}]`} />

      {clip.kind === 'kept' ? (
        <div class="row">
          <p>
            Reuses kept clip <code>{clip.clipUid}</code> (its bot, text and look are as rendered).
          </p>
          <FieldError {...err('clip_uid')} />
          <label for={id('name')}>Clip name</label>
          <input
            id={id('name')}
            value={clip.name}
            maxLength={LIMITS.clipName}
            onInput={(e) => set({ name: e.currentTarget.value })}
            {...invalidProps(err('clip_name').id, path('clip_name'))}
          />
          <FieldError {...err('clip_name')} />
        </div>
      ) : (
        <div class="clip-grid">
          <div class="row">
            <label for={id('bot')}>Bot</label>
            <select
              id={id('bot')}
              value={clip.botUid}
              onChange={(e) => set({ botUid: e.currentTarget.value })}
              {...invalidProps(err('bot_uid').id, path('bot_uid'))}
            >
              {bots.value.map((b) => (
                // A bot still being prepared (or failed) is listed but cannot be picked yet.
                // The name alone, so that the closed select shows it whole; the description is below.
                <option value={b.uid} disabled={b.status !== 'ready'}>
                  {b.status === 'ready' ? b.name : `${b.name} (${b.status})`}
                </option>
              ))}
            </select>
            {bot?.description && <p class="help">{bot.description}</p>}
            <FieldError {...err('bot_uid')} />
            <fieldset class="speech">
              <legend>The bot speaks</legend>
              <label class="check">
                <input type="radio" name={id('speech')} checked={clip.speech === 'text'} onChange={() => set({ speech: 'text' })} />
                Text, in a voice
              </label>
              <label class="check">
                <input type="radio" name={id('speech')} checked={clip.speech === 'recording'} onChange={() => set({ speech: 'recording' })} />
                My own recording
              </label>
            </fieldset>
            {/* A recording's transcript is aligned in its voice's language, so a recorded clip names it too. */}
            <VoicePicker
              id={id('voice')}
              label={clip.speech === 'text' ? 'Voice' : "Recording's language (a voice in it)"}
              value={clip.voice}
              defaultLabel={bot ? `Bot's voice (${describeVoice(bot.voice, voices.value, 'short')})` : "Bot's voice"}
              onChange={(voice) => set({ voice })}
              invalid={invalidProps(err('voice').id, path('voice'))}
            />
            <FieldError {...err('voice')} />
            {clip.speech === 'recording' && (
              <VoiceRecorder
                id={id('audio')}
                label="Recording"
                audio={clip.audio}
                onAudio={(audio) => set({ audio })}
                path={path('audio_upload')}
                at={problemsAt}
              />
            )}
          </div>

          <div class="row">
            <label for={id('text')}>{clip.speech === 'text' ? 'Text' : 'Transcript'}</label>
            {clip.speech === 'recording' && (
              <p class="help" id={`${id('text')}-transcript-help`}>
                What the recording says, word for word. Captions need it: without it the video has no captions and the mouth follows the sound alone.
              </p>
            )}
            <textarea
              id={id('text')}
              rows={3}
              value={clip.text}
              maxLength={LIMITS.textPerClip}
              onInput={(e) => set({ text: e.currentTarget.value })}
              aria-describedby={`${clip.speech === 'recording' ? `${id('text')}-transcript-help ` : ''}${id('text')}-count${textInvalid ? ` ${err('text').id}` : ''}`}
              aria-invalid={textInvalid || undefined}
            />
            <p class={`help count${chars > LIMITS.textPerClip * 0.9 ? ' warn' : ''}`} id={`${id('text')}-count`}>
              {chars} / {LIMITS.textPerClip} characters
            </p>
            <FieldError {...err('text')} />
          </div>

          <PositionPicker
            name={id('position')}
            value={clip.position}
            bot={bot}
            shape={frameShape(composer.value.aspectRatio)}
            onChange={(position) => set({ position })}
          />
          <FieldError {...err('bot_position')} />

          <div class="row">
            <label for={id('size')}>Presenter size</label>
            <select
              id={id('size')}
              value={clip.size}
              onChange={(e) => set({ size: e.currentTarget.value })}
              {...invalidProps(err('bot_size').id, path('bot_size'))}
            >
              <option value="">automatic</option>
              {BOT_SIZES.map((s) => (
                <option value={s}>{s === 'full' ? 'full (the subject: head and shoulders)' : s}</option>
              ))}
            </select>
            {!clip.size && <p class="help">Full when the clip has no background and no position, else medium.</p>}
            <FieldError {...err('bot_size')} />
          </div>

          <div class="row">
            <label class="check">
              <input type="checkbox" checked={clip.removeBackground} onChange={(e) => set({ removeBackground: e.currentTarget.checked })} />
              Remove the bot's own background
            </label>
            <FieldError {...err('remove_bot_background')} />
          </div>

          <div class="row">
            <label for={id('background')}>Background URL</label>
            <input
              id={id('background')}
              type="url"
              inputMode="url"
              placeholder="https://… (a video or picture; empty: a studio gradient)"
              value={clip.background}
              onInput={(e) => set({ background: e.currentTarget.value })}
              {...invalidProps(err('background').id, path('background'))}
            />
            <FieldError {...err('background')} />
            <label for={id('volume')}>Background volume</label>
            <div class="slider">
              <input
                id={id('volume')}
                type="range"
                min={0}
                max={1}
                step={0.05}
                value={clip.backgroundVolume}
                onInput={(e) => set({ backgroundVolume: Number(e.currentTarget.value) })}
              />
              <output for={id('volume')}>{Math.round(clip.backgroundVolume * 100)} %</output>
            </div>
            <FieldError {...err('background_volume')} />
          </div>

          <div class="row two">
            <div>
              <label for={id('entry')}>Entry transition</label>
              <select id={id('entry')} value={clip.entry} onChange={(e) => set({ entry: e.currentTarget.value })}>
                <option value="">None</option>
                {ENTRY_TRANSITIONS.map((t) => (
                  <option value={t}>{humanize(t)}</option>
                ))}
              </select>
            </div>
            <div>
              <label for={id('exit')}>Exit transition</label>
              <select id={id('exit')} value={clip.exit} onChange={(e) => set({ exit: e.currentTarget.value })}>
                <option value="">None</option>
                {EXIT_TRANSITIONS.map((t) => (
                  <option value={t}>{humanize(t)}</option>
                ))}
              </select>
            </div>
          </div>
          <FieldError {...err('transitions')} />

          <OverlayList clip={clip} clipIndex={index} />

          <div class="row two">
            <div>
              <label for={id('name')}>Clip name</label>
              <input
                id={id('name')}
                value={clip.name}
                maxLength={LIMITS.clipName}
                placeholder={`Clip ${index + 1}`}
                onInput={(e) => set({ name: e.currentTarget.value })}
                {...invalidProps(err('clip_name').id, path('clip_name'))}
              />
              <FieldError {...err('clip_name')} />
            </div>
            <label class="check">
              <input type="checkbox" checked={clip.keep} onChange={(e) => set({ keep: e.currentTarget.checked })} />
              Keep for reuse
            </label>
          </div>
        </div>
      )}
    </fieldset>
  );
}
