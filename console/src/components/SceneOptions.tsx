import { humanize, MUSIC_PRESETS, OVERLAY_LIMITS, POSITIONS, THEME_DEFAULTS, THEME_FONTS } from '../options.ts';
import type { SceneDraft } from '../request.ts';
import { setScene } from '../scene-state.ts';
import { composer } from '../state.ts';
import { FieldError, invalidProps } from './FieldError.tsx';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** A colour of the theme: a swatch to pick with, and a way back to the default. */
function ColourField({ id, label, field }: { id: string; label: string; field: 'primaryColor' | 'textColor' }) {
  const value = composer.value.scene[field];
  const path = `theme.${field === 'primaryColor' ? 'primary_color' : 'text_color'}`;
  return (
    <div>
      <label for={id}>{label}</label>
      <div class="slider">
        <input
          id={id}
          type="color"
          value={value || (field === 'primaryColor' ? THEME_DEFAULTS.primary_color : THEME_DEFAULTS.text_color).toLowerCase()}
          onInput={(e) => setScene({ [field]: e.currentTarget.value })}
        />
        <output for={id}>{value || 'default'}</output>
        {value && (
          <button type="button" class="link" onClick={() => setScene({ [field]: '' })} aria-label={`${label}: back to the default`}>
            Default
          </button>
        )}
      </div>
      <FieldError id={`${id}-error`} path={path} />
    </div>
  );
}

/** The brand of the picture: a logo on every frame of every clip, and the theme of its text (fonts and colours). */
export function BrandOptions() {
  const scene = composer.value.scene;
  const set = (change: Partial<SceneDraft>) => setScene(change);
  return (
    <div class="row scene-brand">
      <label for="logo-url">Logo URL</label>
      <input
        id="logo-url"
        type="url"
        inputMode="url"
        placeholder="https://… (PNG, JPEG or WebP; empty: no logo)"
        value={scene.logoUrl}
        onInput={(e) => set({ logoUrl: e.currentTarget.value })}
        {...invalidProps('logo-url-error', 'logo.url')}
      />
      <FieldError id="logo-url-error" path="logo.url" />
      <FieldError id="logo-error" path="logo" />
      {scene.logoUrl.trim() && (
        <div class="row three">
          <div>
            <label for="logo-position">Logo position</label>
            <select id="logo-position" value={scene.logoPosition} onChange={(e) => set({ logoPosition: e.currentTarget.value })}>
              {POSITIONS.map((p) => (
                <option value={p}>{humanize(p)}</option>
              ))}
            </select>
            <FieldError id="logo-position-error" path="logo.position" />
          </div>
          <div>
            <label for="logo-size">Logo width</label>
            <div class="slider">
              <input
                id="logo-size"
                type="range"
                min={OVERLAY_LIMITS.minImageSize}
                max={OVERLAY_LIMITS.maxImageSize}
                step={0.01}
                value={scene.logoSize}
                onInput={(e) => set({ logoSize: Number(e.currentTarget.value) })}
              />
              <output for="logo-size">{percent(scene.logoSize)}</output>
            </div>
            <FieldError id="logo-size-error" path="logo.size" />
          </div>
          <div>
            <label for="logo-opacity">Logo opacity</label>
            <div class="slider">
              <input
                id="logo-opacity"
                type="range"
                min={0}
                max={1}
                step={0.05}
                value={scene.logoOpacity}
                onInput={(e) => set({ logoOpacity: Number(e.currentTarget.value) })}
              />
              <output for="logo-opacity">{percent(scene.logoOpacity)}</output>
            </div>
            <FieldError id="logo-opacity-error" path="logo.opacity" />
          </div>
        </div>
      )}
      <div class="row three">
        <div>
          <label for="theme-font">Font</label>
          <select
            id="theme-font"
            value={scene.font}
            onChange={(e) => set({ font: e.currentTarget.value })}
            {...invalidProps('theme-font-error', 'theme.font')}
          >
            <option value="">Default</option>
            {THEME_FONTS.map((font) => (
              <option value={font}>{humanize(font)}</option>
            ))}
          </select>
          <FieldError id="theme-font-error" path="theme.font" />
        </div>
        <ColourField id="theme-primary" label="Primary colour" field="primaryColor" />
        <ColourField id="theme-text" label="Text colour" field="textColor" />
      </div>
      <p class="help">The font and colours are those of titles, lower thirds, text boxes and burned captions.</p>
    </div>
  );
}

/** A music bed under the voice: one of vidbot's own, or a file of the caller's, ducked while a presenter speaks. */
export function MusicOptions() {
  const scene = composer.value.scene;
  const set = (change: Partial<SceneDraft>) => setScene(change);
  return (
    <div class="row scene-music">
      <div class="row two">
        <div>
          <label for="music">Music</label>
          <select
            id="music"
            value={scene.music === 'preset' ? `preset:${scene.musicPreset}` : scene.music}
            onChange={(e) => {
              const value = e.currentTarget.value;
              if (value.startsWith('preset:')) set({ music: 'preset', musicPreset: value.slice('preset:'.length) });
              else set({ music: value as SceneDraft['music'] });
            }}
            {...invalidProps('music-error', 'music')}
          >
            <option value="none">None</option>
            {MUSIC_PRESETS.map((preset) => (
              <option value={`preset:${preset}`}>{humanize(preset)} (vidbot's own)</option>
            ))}
            <option value="url">From a URL…</option>
          </select>
        </div>
        {scene.music !== 'none' && (
          <div>
            <label for="music-volume">Music volume</label>
            <div class="slider">
              <input
                id="music-volume"
                type="range"
                min={0}
                max={1}
                step={0.05}
                value={scene.musicVolume}
                onInput={(e) => set({ musicVolume: Number(e.currentTarget.value) })}
              />
              <output for="music-volume">{percent(scene.musicVolume)}</output>
            </div>
            <FieldError id="music-volume-error" path="music.volume" />
          </div>
        )}
      </div>
      <FieldError id="music-error" path="music" />
      <FieldError id="music-preset-error" path="music.preset" />
      {scene.music === 'url' && (
        <>
          <label for="music-url">Music URL</label>
          <input
            id="music-url"
            type="url"
            inputMode="url"
            placeholder="https://… (MP3, M4A, WAV, Ogg, or a video whose sound is used)"
            value={scene.musicUrl}
            onInput={(e) => set({ musicUrl: e.currentTarget.value })}
            {...invalidProps('music-url-error', 'music.url')}
          />
          <FieldError id="music-url-error" path="music.url" />
        </>
      )}
      {scene.music !== 'none' && <p class="help">It plays under the whole video and drops while a presenter speaks.</p>}
    </div>
  );
}
