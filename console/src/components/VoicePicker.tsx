import { useState } from 'preact/hooks';
import { voices, voicesError } from '../state.ts';
import { groupVoices, voiceLabel } from '../voices.ts';

/**
 * A voice from the catalog (GET /v1/voices): a select grouped by language, and a filter that narrows it (100+
 * voices). The first option, '' (`defaultLabel`), sends no voice. `id` names the select; the filter is `${id}-filter`.
 * `label` names the select (a recorded clip's voice says the recording's language).
 */
export function VoicePicker({
  id,
  label = 'Voice',
  value,
  defaultLabel,
  onChange,
  invalid,
}: {
  id: string;
  label?: string;
  value: string;
  defaultLabel: string;
  onChange: (voice: string) => void;
  invalid?: Record<string, unknown>;
}) {
  const [filter, setFilter] = useState('');
  const groups = groupVoices(voices.value, filter, value);
  const shown = groups.reduce((sum, g) => sum + g.voices.length, 0);
  return (
    <div class="voice-picker">
      <label for={id}>{label}</label>
      <div class="voice-row">
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)} {...invalid}>
          <option value="">{defaultLabel}</option>
          {groups.map((group) => (
            <optgroup label={group.language}>
              {group.voices.map((voice) => (
                <option value={voice.id}>{voiceLabel(voice)}</option>
              ))}
            </optgroup>
          ))}
        </select>
        <input
          id={`${id}-filter`}
          type="search"
          class="voice-filter"
          placeholder="Filter: spanish, es, female…"
          aria-label="Filter voices"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
          aria-describedby={`${id}-count`}
        />
      </div>
      <p class="help" id={`${id}-count`} aria-live="polite">
        {voicesError.value ||
          (filter ? `${shown} of ${voices.value.length} voices match` : `${voices.value.length} voices in ${groups.length} languages`)}
      </p>
    </div>
  );
}
