import type { Bot } from '../api.ts';
import { type FrameShape, humanize, POSITIONS } from '../options.ts';

/**
 * Where the bot stands, picked on a preview of the frame in the video's shape: nine radio buttons laid out as the
 * frame's grid. "Bot's default" sends no bot_position (the API uses the bot's own); picking a cell, even the
 * default one, sends it.
 */
export function PositionPicker({
  name,
  value,
  bot,
  shape,
  onChange,
}: {
  name: string;
  value: string | null;
  bot?: Bot;
  shape: FrameShape;
  onChange: (position: string | null) => void;
}) {
  const effective = value ?? bot?.default_position ?? 'bottom-right';
  return (
    <fieldset class="position">
      <legend>Position</legend>
      <div
        class={`frame shape-${shape.width > shape.height ? 'wide' : shape.width < shape.height ? 'tall' : 'square'}`}
        style={{ aspectRatio: `${shape.width} / ${shape.height}` }}
        aria-label={`Frame preview, ${shape.label}`}
        role="group"
      >
        {POSITIONS.map((position) => (
          <label class={`cell${effective === position ? ' chosen' : ''}`} title={humanize(position)}>
            <input type="radio" name={name} value={position} checked={effective === position} onClick={() => onChange(position)} />
            <span class="sr-only">{humanize(position)}</span>
            {effective === position && bot?.preview_image_url && <img src={bot.preview_image_url} alt="" class="marker" />}
          </label>
        ))}
      </div>
      <p class="help">
        {value ? humanize(value) : `${humanize(effective)} (the bot's default)`}
        {value && (
          <button type="button" class="link" onClick={() => onChange(null)}>
            Use the bot's default
          </button>
        )}
      </p>
    </fieldset>
  );
}
