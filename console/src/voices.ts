/**
 * The voice catalog (GET /v1/voices, 100+ voices) as a picker shows it: grouped by language, narrowed by what the
 * person types. Pure, so the grouping and the filter are tested without a browser.
 */

/** One voice of GET /v1/voices. */
export interface Voice {
  id: string;
  language: string;
  language_name: string;
  gender?: 'female' | 'male';
  engine: string;
}

export interface VoiceGroup {
  language: string;
  voices: Voice[];
}

const words = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean);

/**
 * Every word typed must appear in the voice's id, language tag, language name or gender.
 * @internal Exported for its tests.
 */
export function matchesVoice(voice: Voice, filter: string): boolean {
  const haystack = `${voice.id} ${voice.language} ${voice.language_name} ${voice.gender ?? ''} ${voice.engine}`.toLowerCase();
  return words(filter).every((word) => haystack.includes(word));
}

/**
 * The voices that match, grouped by language name (groups and voices in alphabetical order). `keep` (the voice
 * already chosen) stays listed whatever the filter, so a select never loses its value while the person types.
 */
export function groupVoices(voices: readonly Voice[], filter = '', keep = ''): VoiceGroup[] {
  const groups = new Map<string, Voice[]>();
  for (const voice of voices) {
    if (voice.id !== keep && !matchesVoice(voice, filter)) continue;
    const list = groups.get(voice.language_name) ?? [];
    list.push(voice);
    groups.set(voice.language_name, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en'))
    .map(([language, list]) => ({ language, voices: list.sort((a, b) => a.id.localeCompare(b.id, 'en')) }));
}

/** One option's words: "Spanish · female · espeak:es" (the id is what the request carries). */
export const voiceLabel = (voice: Voice) => [voice.language_name, voice.gender, voice.id].filter(Boolean).join(' · ');

/** A voice id in words where the catalog knows it, else the id itself. */
export function describeVoice(id: string, voices: readonly Voice[], form: 'full' | 'short' = 'full'): string {
  const voice = voices.find((v) => v.id === id);
  if (!voice) return id;
  // Short: what fits a closed select beside another (its language and gender; the id is in the list).
  return form === 'short' ? [voice.language_name, voice.gender].filter(Boolean).join(', ') : voiceLabel(voice);
}
