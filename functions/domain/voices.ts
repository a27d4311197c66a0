/**
 * Voices a bot or a clip may speak with. A voice id names its engine: `espeak:<espeak-ng voice>` (e.g.
 * `espeak:en-us+f3`, `espeak:es+m3`) or `polly:<Polly VoiceId>` (e.g. `polly:Lucia`). The catalog is data, so the
 * domain can validate a voice without knowing how it is spoken.
 */
import { ESPEAK_LANGUAGES } from './espeak-languages.ts';
import { POLLY_VOICES } from './polly-voices.ts';

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

/**
 * espeak-ng's variants (other formants and pitch; they apply to every language). Each language is offered as one
 * female and one male voice, f3 and m3. The English voices are offered in four more variants, chosen because an
 * offline recogniser understands them best (docs/bots-and-voices.md, `npm run voices:wer`): f2 and f5, m5 and m6.
 * Listing every variant (f1-f5, m1-m8 and the named ones) for every language would make a list of over 13,000
 * where a caller looks for a language and a gender; the measure is English, so the extra variants are too.
 */
const ESPEAK_VARIANTS = [
  { variant: 'f3', gender: 'female' },
  { variant: 'm3', gender: 'male' },
  { variant: 'f2', gender: 'female', english: true },
  { variant: 'f5', gender: 'female', english: true },
  { variant: 'm5', gender: 'male', english: true },
  { variant: 'm6', gender: 'male', english: true },
] as const;

const isEnglish = (language: string) => language === 'en' || language.startsWith('en-');

const ESPEAK_VOICES: readonly Voice[] = ESPEAK_LANGUAGES.flatMap((l) =>
  ESPEAK_VARIANTS.filter((v) => !('english' in v) || isEnglish(l.language)).map(({ variant, gender }) => ({
    id: `espeak:${l.voice}+${variant}`,
    engine: 'espeak' as const,
    language: l.language,
    languageName: l.languageName,
    gender,
  })),
);

const POLLY_CATALOG: readonly Voice[] = POLLY_VOICES.map((v) => ({
  id: `polly:${v.voiceId}`,
  engine: 'polly' as const,
  language: v.language,
  languageName: v.languageName,
  gender: v.gender,
}));

const byLanguageName = (a: Voice, b: Voice) =>
  a.languageName.localeCompare(b.languageName, 'en') || a.engine.localeCompare(b.engine) || a.id.localeCompare(b.id);
const ALL = [...ESPEAK_VOICES, ...POLLY_CATALOG].sort(byLanguageName);
const BY_ID = new Map(ALL.map((v) => [v.id, v] as const));

/** Every voice this deployment can speak, by language name. */
export const listVoices = (options: VoiceOptions): Voice[] => ALL.filter((voice) => options.polly || voice.engine !== 'polly');

/** The voice with this id, if the deployment can speak it. */
export const findVoice = (id: string, options: VoiceOptions): Voice | undefined => {
  const voice = BY_ID.get(id);
  return voice && (options.polly || voice.engine !== 'polly') ? voice : undefined;
};

const ESPEAK_FILES = new Map(ESPEAK_LANGUAGES.map((l) => [l.voice, l.file] as const));

/**
 * What espeak-ng's `-v` takes for an espeak voice id: its voice file and variant (`espeak:en-gb+m3` →
 * `gmw/en+m3`), or undefined if the id is not one of the catalog's. By file, because espeak-ng drops the variant
 * of a voice it selects by a language tag that is not also a file's name (`en-gb+m3` sounds as `en-gb`).
 */
export function espeakVoiceArgument(id: string): string | undefined {
  const [engine, name] = splitVoiceId(id);
  const plus = name.indexOf('+');
  const file = engine === 'espeak' && plus > 0 ? ESPEAK_FILES.get(name.slice(0, plus)) : undefined;
  const variant = name.slice(plus + 1);
  return file && BY_ID.has(id) ? `${file}+${variant}` : undefined;
}

/** `espeak:es+f3` → ['espeak', 'es+f3']. */
export const splitVoiceId = (id: string): [string, string] => {
  const colon = id.indexOf(':');
  return colon < 0 ? ['', id] : [id.slice(0, colon), id.slice(colon + 1)];
};

/**
 * The language a caller asks for, in canonical BCP 47 (`ES` → `es`, `cmn` → `zh`), or undefined if it is no
 * language tag.
 */
export function canonicalLanguage(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

/** The voices of a language and its regional forms: `es` matches `es`, `es-419` and `es-US`; `es-US` only `es-US`. */
export function voicesOfLanguage(voices: readonly Voice[], language: string): Voice[] {
  const wanted = language.toLowerCase();
  return voices.filter((v) => {
    const tag = v.language.toLowerCase();
    return tag === wanted || tag.startsWith(`${wanted}-`);
  });
}

/** A Polly voice's synthesis engine: neural where the voice has it, else standard. */
export const pollyEngineOf = (voiceId: string): 'neural' | 'standard' =>
  POLLY_VOICES.find((v) => v.voiceId === voiceId)?.neural === false ? 'standard' : 'neural';

/** How a bot sounds. */
export interface BotVoice {
  /** An espeak-ng voice id (`espeak:…`): spoken wherever Polly is off (locally, offline) or the bot names no Polly voice. */
  espeak: string;
  /** An Amazon Polly voice id (`polly:…`): spoken where the deployment uses Polly (SPEECH_ENGINE=polly, on AWS). */
  polly?: string;
  /** espeak-ng words per minute with the bot's own espeak voice. @default espeak-ng's 175 */
  espeakRate?: number;
  /** espeak-ng pitch (0-99) with the bot's own espeak voice. @default espeak-ng's 50 */
  espeakPitch?: number;
}

/** The voice one clip is spoken with, and the delivery (espeak-ng only): what the speech engine is given. */
export interface SpeechVoice {
  id: string;
  rate?: number;
  pitch?: number;
}

/**
 * An espeak-ng voice close to a Polly voice: its language (or else the language without its region, or one of its
 * regional forms, or else American English), its gender. It speaks a Polly voice where Polly is not available.
 */
function espeakStandIn(voice: Voice): Voice {
  // The voices every language has (f3, m3): a stand-in keeps the voice it has always had.
  const espeak = ALL.filter((v) => v.engine === 'espeak' && /\+[fm]3$/.test(v.id));
  const primary = voice.language.split('-')[0]!;
  const candidates = [
    espeak.filter((v) => v.language === voice.language),
    espeak.filter((v) => v.language === primary),
    voicesOfLanguage(espeak, primary),
    espeak.filter((v) => v.language === 'en-US'),
  ].find((list) => list.length > 0)!;
  return candidates.find((v) => v.gender === voice.gender) ?? candidates[0]!;
}

/** A language tag's language alone, lower-cased: `en` of `en-US`, `en_GB` or `EN`. */
export const baseLanguageOf = (tag: string): string => tag.toLowerCase().split(/[-_]/)[0] ?? '';

/**
 * The espeak-ng voice that speaks a voice's language: the voice itself, or a Polly voice's stand-in when it is of
 * the same language (a recording's transcript is spoken in it to be aligned); none when espeak-ng lacks the language.
 */
export function espeakVoiceOfLanguage(voice: Voice): string | undefined {
  if (voice.engine === 'espeak') return voice.id;
  const standIn = espeakStandIn(voice);
  return baseLanguageOf(standIn.language) === baseLanguageOf(voice.language) ? standIn.id : undefined;
}

/** A bot voice from one voice id of the catalog (an account bot's `voice`): a Polly voice gets an espeak-ng stand-in. */
export function botVoiceOf(voice: Voice): BotVoice {
  return voice.engine === 'polly' ? { espeak: espeakStandIn(voice).id, polly: voice.id } : { espeak: voice.id };
}

/**
 * What a clip is spoken with: the clip's own voice if it names one, else the bot's — its Polly voice where the
 * deployment uses Polly, else its espeak-ng voice with its own rate and pitch. A Polly voice where Polly is off
 * (a clip stored before the deployment turned Polly off) is spoken by its espeak-ng stand-in; a clip voice no
 * longer in the catalog, by the bot's voice.
 */
export function voiceToSpeak(bot: BotVoice, clipVoice: string | undefined, options: VoiceOptions): SpeechVoice {
  const voice = clipVoice ? BY_ID.get(clipVoice) : undefined;
  if (voice) return voice.engine === 'polly' && !options.polly ? { id: espeakStandIn(voice).id } : { id: voice.id };
  // No clip voice, or one that has since left the catalog (a stored clip outliving a voice removed from it): the
  // bot's own voice speaks. The engine would refuse an unknown id, and that clip would fail on every retry.
  if (options.polly && bot.polly) return { id: bot.polly };
  return {
    id: bot.espeak,
    ...(bot.espeakRate !== undefined && { rate: bot.espeakRate }),
    ...(bot.espeakPitch !== undefined && { pitch: bot.espeakPitch }),
  };
}
