/**
 * Voices a bot or a clip may speak with. A voice id names its engine: `espeak:<espeak-ng voice>` (e.g.
 * `espeak:en-us+f3`, `espeak:es`) or `polly:<Polly VoiceId>` (e.g. `polly:Lucia`). The catalog is data, so the
 * domain can validate a voice without knowing how it is spoken.
 */

export type SpeechEngineName = 'espeak' | 'polly';

export interface Voice {
  /** `espeak:<voice>` or `polly:<VoiceId>`. */
  id: string;
  engine: SpeechEngineName;
  /** BCP 47, e.g. `es`, `en-US`. */
  language: string;
  /** In English, e.g. `Spanish`. */
  languageName: string;
  gender?: 'female' | 'male';
}

/** What the deployment can speak: espeak-ng always; Polly only where it is enabled (on AWS). */
export interface VoiceOptions {
  polly: boolean;
}

/** The voices the built-in bots name; the full catalog extends this list. */
const KNOWN_VOICES: readonly Voice[] = [
  { id: 'espeak:en-us+f3', engine: 'espeak', language: 'en-US', languageName: 'English (America)', gender: 'female' },
  { id: 'espeak:en-us+f5', engine: 'espeak', language: 'en-US', languageName: 'English (America)', gender: 'female' },
  { id: 'espeak:en-us+m7', engine: 'espeak', language: 'en-US', languageName: 'English (America)', gender: 'male' },
  { id: 'espeak:en-gb+m3', engine: 'espeak', language: 'en-GB', languageName: 'English (Great Britain)', gender: 'male' },
  { id: 'polly:Joanna', engine: 'polly', language: 'en-US', languageName: 'English (America)', gender: 'female' },
  { id: 'polly:Ruth', engine: 'polly', language: 'en-US', languageName: 'English (America)', gender: 'female' },
  { id: 'polly:Matthew', engine: 'polly', language: 'en-US', languageName: 'English (America)', gender: 'male' },
  { id: 'polly:Brian', engine: 'polly', language: 'en-GB', languageName: 'English (Great Britain)', gender: 'male' },
];

/** Every voice this deployment can speak. */
export const listVoices = (options: VoiceOptions): Voice[] => KNOWN_VOICES.filter((voice) => options.polly || voice.engine !== 'polly');

/** The voice with this id, if the deployment can speak it. */
export const findVoice = (id: string, options: VoiceOptions): Voice | undefined => listVoices(options).find((voice) => voice.id === id);
