import { humanize, OVERLAY_DEFAULT_POSITIONS, OVERLAY_LIMITS, OVERLAY_STYLES, POSITIONS } from '../options.ts';
import type { ClipDraft, OverlayDraft } from '../request.ts';
import { addOverlay, removeOverlay, updateOverlay } from '../scene-state.ts';
import { FieldError, invalidProps } from './FieldError.tsx';

/** One layer: a text with its style, or an image with its size; each shown from `start` to `end` seconds. */
function OverlayEditor({ clip, clipIndex, overlay, index }: { clip: ClipDraft; clipIndex: number; overlay: OverlayDraft; index: number }) {
  const id = (field: string) => `clip-${clip.id}-overlay-${overlay.id}-${field}`;
  const path = (field: string) => `clips[${clipIndex}].overlays[${index}].${field}`;
  const err = (field: string) => ({ id: `${id(field)}-error`, path: path(field) });
  const set = (change: Partial<OverlayDraft>) => updateOverlay(clip.id, overlay.id, change);
  const title = `${overlay.type === 'text' ? 'Text' : 'Image'} ${index + 1}`;
  return (
    <div class="overlay" role="group" aria-label={`Clip ${clipIndex + 1}, ${title}`}>
      <div class="row-top">
        <strong>{title}</strong>
        <button
          type="button"
          class="danger"
          onClick={() => removeOverlay(clip.id, overlay.id)}
          aria-label={`Remove ${title} of clip ${clipIndex + 1}`}
        >
          Remove
        </button>
      </div>
      <FieldError id={`${id('overlay')}-error`} path={`clips[${clipIndex}].overlays[${index}]`} />
      {overlay.type === 'text' ? (
        <div class="row two">
          <div>
            <label for={id('text')}>Text</label>
            <input
              id={id('text')}
              value={overlay.text}
              onInput={(e) => set({ text: e.currentTarget.value })}
              {...invalidProps(err('text').id, path('text'))}
            />
            <FieldError {...err('text')} />
          </div>
          <div>
            <label for={id('style')}>Style</label>
            <select
              id={id('style')}
              value={overlay.style}
              onChange={(e) => set({ style: e.currentTarget.value })}
              {...invalidProps(err('style').id, path('style'))}
            >
              {OVERLAY_STYLES.map((s) => (
                <option value={s}>{humanize(s)}</option>
              ))}
            </select>
            <FieldError {...err('style')} />
          </div>
        </div>
      ) : (
        <div class="row two">
          <div>
            <label for={id('url')}>Image URL</label>
            <input
              id={id('url')}
              type="url"
              inputMode="url"
              placeholder="https://… (PNG, JPEG or WebP)"
              value={overlay.url}
              onInput={(e) => set({ url: e.currentTarget.value })}
              {...invalidProps(err('url').id, path('url'))}
            />
            <FieldError {...err('url')} />
          </div>
          <div>
            <label for={id('size')}>Width</label>
            <div class="slider">
              <input
                id={id('size')}
                type="range"
                min={OVERLAY_LIMITS.minImageSize}
                max={OVERLAY_LIMITS.maxImageSize}
                step={0.01}
                value={overlay.size}
                onInput={(e) => set({ size: Number(e.currentTarget.value) })}
              />
              <output for={id('size')}>{Math.round(overlay.size * 100)} %</output>
            </div>
            <FieldError {...err('size')} />
          </div>
        </div>
      )}
      <div class="row three">
        <div>
          <label for={id('start')}>From (s)</label>
          <input
            id={id('start')}
            inputMode="decimal"
            placeholder="0"
            value={overlay.start}
            onInput={(e) => set({ start: e.currentTarget.value })}
            {...invalidProps(err('start').id, path('start'))}
          />
          <FieldError {...err('start')} />
        </div>
        <div>
          <label for={id('end')}>To (s)</label>
          <input
            id={id('end')}
            inputMode="decimal"
            placeholder="clip's end"
            value={overlay.end}
            onInput={(e) => set({ end: e.currentTarget.value })}
            {...invalidProps(err('end').id, path('end'))}
          />
          <FieldError {...err('end')} />
        </div>
        <div>
          <label for={id('position')}>Where</label>
          <select
            id={id('position')}
            value={overlay.position}
            onChange={(e) => set({ position: e.currentTarget.value })}
            {...invalidProps(err('position').id, path('position'))}
          >
            <option value="">{overlay.type === 'text' ? "The style's place" : humanize(OVERLAY_DEFAULT_POSITIONS.image)}</option>
            {POSITIONS.map((p) => (
              <option value={p}>{humanize(p)}</option>
            ))}
          </select>
          <FieldError {...err('position')} />
        </div>
      </div>
    </div>
  );
}

/** A clip's on-screen text and images (`overlays`), in the order they are drawn. */
export function OverlayList({ clip, clipIndex }: { clip: ClipDraft; clipIndex: number }) {
  const full = clip.overlays.length >= OVERLAY_LIMITS.perClip;
  return (
    <div class="row overlays">
      <span class="label">On-screen text and images</span>
      {clip.overlays.map((overlay, index) => (
        <OverlayEditor key={overlay.id} clip={clip} clipIndex={clipIndex} overlay={overlay} index={index} />
      ))}
      <FieldError id={`clip-${clip.id}-overlays-error`} path={`clips[${clipIndex}].overlays`} />
      <div class="below-clips">
        <button type="button" onClick={() => addOverlay(clip.id, 'text')} disabled={full} aria-label={`Add a text to clip ${clipIndex + 1}`}>
          + Text
        </button>
        <button type="button" onClick={() => addOverlay(clip.id, 'image')} disabled={full} aria-label={`Add an image to clip ${clipIndex + 1}`}>
          + Image
        </button>
        <span class="help">
          {clip.overlays.length} of {OVERLAY_LIMITS.perClip}
        </span>
      </div>
    </div>
  );
}
