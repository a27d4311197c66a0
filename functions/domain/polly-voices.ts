/**
 * Amazon Polly's voices, as Polly's documentation and DescribeVoices list them (the voice list of the Polly
 * Developer Guide, "Available voices"; every id is checked against the SDK's VoiceId enum by the tests).
 * `neural`: the voice has a neural variant, which vidbot uses; the others are spoken by the standard engine.
 * Polly-only codes are written in BCP 47 here: `arb` and `cmn-CN` canonicalise to `ar` and `zh-CN`, and Polly's
 * `en-GB-WLS` (Welsh English) is `en-GB`. Voices Polly offers only with its generative or long-form
 * engines are left out: vidbot speaks with the neural engine, or the standard one where a voice has no neural variant.
 *
 * `npm run voices:polly` (infra/voices/polly.ts) rewrites the list from DescribeVoices, with AWS credentials.
 * Committed data rather than DescribeVoices at run time: the list changes a few times a year, the API functions
 * then need no Polly permission or network call to list or validate a voice, and the tests run offline.
 */
export interface PollyVoice {
  voiceId: string;
  /** BCP 47. */
  language: string;
  /** In English (Intl.DisplayNames). */
  languageName: string;
  gender: 'female' | 'male';
  neural: boolean;
}

export const POLLY_VOICES: readonly PollyVoice[] = [
  { voiceId: 'Zeina', language: 'ar', languageName: 'Arabic', gender: 'female', neural: false },
  { voiceId: 'Hala', language: 'ar-AE', languageName: 'Arabic (United Arab Emirates)', gender: 'female', neural: true },
  { voiceId: 'Zayd', language: 'ar-AE', languageName: 'Arabic (United Arab Emirates)', gender: 'male', neural: true },
  { voiceId: 'Arlet', language: 'ca-ES', languageName: 'Catalan (Spain)', gender: 'female', neural: true },
  { voiceId: 'Jitka', language: 'cs-CZ', languageName: 'Czech (Czechia)', gender: 'female', neural: true },
  { voiceId: 'Gwyneth', language: 'cy-GB', languageName: 'Welsh (United Kingdom)', gender: 'female', neural: false },
  { voiceId: 'Mads', language: 'da-DK', languageName: 'Danish (Denmark)', gender: 'male', neural: false },
  { voiceId: 'Naja', language: 'da-DK', languageName: 'Danish (Denmark)', gender: 'female', neural: false },
  { voiceId: 'Sofie', language: 'da-DK', languageName: 'Danish (Denmark)', gender: 'female', neural: true },
  { voiceId: 'Hannah', language: 'de-AT', languageName: 'Austrian German', gender: 'female', neural: true },
  { voiceId: 'Sabrina', language: 'de-CH', languageName: 'Swiss High German', gender: 'female', neural: true },
  { voiceId: 'Daniel', language: 'de-DE', languageName: 'German (Germany)', gender: 'male', neural: true },
  { voiceId: 'Hans', language: 'de-DE', languageName: 'German (Germany)', gender: 'male', neural: false },
  { voiceId: 'Marlene', language: 'de-DE', languageName: 'German (Germany)', gender: 'female', neural: false },
  { voiceId: 'Vicki', language: 'de-DE', languageName: 'German (Germany)', gender: 'female', neural: true },
  { voiceId: 'Nicole', language: 'en-AU', languageName: 'Australian English', gender: 'female', neural: false },
  { voiceId: 'Olivia', language: 'en-AU', languageName: 'Australian English', gender: 'female', neural: true },
  { voiceId: 'Russell', language: 'en-AU', languageName: 'Australian English', gender: 'male', neural: false },
  { voiceId: 'Amy', language: 'en-GB', languageName: 'British English', gender: 'female', neural: true },
  { voiceId: 'Arthur', language: 'en-GB', languageName: 'British English', gender: 'male', neural: true },
  { voiceId: 'Brian', language: 'en-GB', languageName: 'British English', gender: 'male', neural: true },
  { voiceId: 'Emma', language: 'en-GB', languageName: 'British English', gender: 'female', neural: true },
  { voiceId: 'Geraint', language: 'en-GB', languageName: 'Welsh English', gender: 'male', neural: false },
  { voiceId: 'Niamh', language: 'en-IE', languageName: 'English (Ireland)', gender: 'female', neural: true },
  { voiceId: 'Aditi', language: 'en-IN', languageName: 'English (India)', gender: 'female', neural: false },
  { voiceId: 'Kajal', language: 'en-IN', languageName: 'English (India)', gender: 'female', neural: true },
  { voiceId: 'Raveena', language: 'en-IN', languageName: 'English (India)', gender: 'female', neural: false },
  { voiceId: 'Aria', language: 'en-NZ', languageName: 'English (New Zealand)', gender: 'female', neural: true },
  { voiceId: 'Jasmine', language: 'en-SG', languageName: 'English (Singapore)', gender: 'female', neural: true },
  { voiceId: 'Danielle', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Gregory', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Ivy', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Joanna', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Joey', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Justin', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Kendra', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Kevin', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Kimberly', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Matthew', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Ruth', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Salli', language: 'en-US', languageName: 'American English', gender: 'female', neural: true },
  { voiceId: 'Stephen', language: 'en-US', languageName: 'American English', gender: 'male', neural: true },
  { voiceId: 'Ayanda', language: 'en-ZA', languageName: 'English (South Africa)', gender: 'female', neural: true },
  { voiceId: 'Conchita', language: 'es-ES', languageName: 'European Spanish', gender: 'female', neural: false },
  { voiceId: 'Enrique', language: 'es-ES', languageName: 'European Spanish', gender: 'male', neural: false },
  { voiceId: 'Lucia', language: 'es-ES', languageName: 'European Spanish', gender: 'female', neural: true },
  { voiceId: 'Sergio', language: 'es-ES', languageName: 'European Spanish', gender: 'male', neural: true },
  { voiceId: 'Andres', language: 'es-MX', languageName: 'Mexican Spanish', gender: 'male', neural: true },
  { voiceId: 'Mia', language: 'es-MX', languageName: 'Mexican Spanish', gender: 'female', neural: true },
  { voiceId: 'Lupe', language: 'es-US', languageName: 'Spanish (United States)', gender: 'female', neural: true },
  { voiceId: 'Miguel', language: 'es-US', languageName: 'Spanish (United States)', gender: 'male', neural: false },
  { voiceId: 'Pedro', language: 'es-US', languageName: 'Spanish (United States)', gender: 'male', neural: true },
  { voiceId: 'Penelope', language: 'es-US', languageName: 'Spanish (United States)', gender: 'female', neural: false },
  { voiceId: 'Suvi', language: 'fi-FI', languageName: 'Finnish (Finland)', gender: 'female', neural: true },
  { voiceId: 'Isabelle', language: 'fr-BE', languageName: 'French (Belgium)', gender: 'female', neural: true },
  { voiceId: 'Chantal', language: 'fr-CA', languageName: 'Canadian French', gender: 'female', neural: false },
  { voiceId: 'Gabrielle', language: 'fr-CA', languageName: 'Canadian French', gender: 'female', neural: true },
  { voiceId: 'Liam', language: 'fr-CA', languageName: 'Canadian French', gender: 'male', neural: true },
  { voiceId: 'Celine', language: 'fr-FR', languageName: 'French (France)', gender: 'female', neural: false },
  { voiceId: 'Lea', language: 'fr-FR', languageName: 'French (France)', gender: 'female', neural: true },
  { voiceId: 'Mathieu', language: 'fr-FR', languageName: 'French (France)', gender: 'male', neural: false },
  { voiceId: 'Remi', language: 'fr-FR', languageName: 'French (France)', gender: 'male', neural: true },
  { voiceId: 'Dora', language: 'is-IS', languageName: 'Icelandic (Iceland)', gender: 'female', neural: false },
  { voiceId: 'Karl', language: 'is-IS', languageName: 'Icelandic (Iceland)', gender: 'male', neural: false },
  { voiceId: 'Adriano', language: 'it-IT', languageName: 'Italian (Italy)', gender: 'male', neural: true },
  { voiceId: 'Bianca', language: 'it-IT', languageName: 'Italian (Italy)', gender: 'female', neural: true },
  { voiceId: 'Carla', language: 'it-IT', languageName: 'Italian (Italy)', gender: 'female', neural: false },
  { voiceId: 'Giorgio', language: 'it-IT', languageName: 'Italian (Italy)', gender: 'male', neural: false },
  { voiceId: 'Kazuha', language: 'ja-JP', languageName: 'Japanese (Japan)', gender: 'female', neural: true },
  { voiceId: 'Mizuki', language: 'ja-JP', languageName: 'Japanese (Japan)', gender: 'female', neural: false },
  { voiceId: 'Takumi', language: 'ja-JP', languageName: 'Japanese (Japan)', gender: 'male', neural: true },
  { voiceId: 'Tomoko', language: 'ja-JP', languageName: 'Japanese (Japan)', gender: 'female', neural: true },
  { voiceId: 'Seoyeon', language: 'ko-KR', languageName: 'Korean (South Korea)', gender: 'female', neural: true },
  { voiceId: 'Ida', language: 'nb-NO', languageName: 'Norwegian Bokmål (Norway)', gender: 'female', neural: true },
  { voiceId: 'Liv', language: 'nb-NO', languageName: 'Norwegian Bokmål (Norway)', gender: 'female', neural: false },
  { voiceId: 'Lisa', language: 'nl-BE', languageName: 'Flemish', gender: 'female', neural: true },
  { voiceId: 'Laura', language: 'nl-NL', languageName: 'Dutch (Netherlands)', gender: 'female', neural: true },
  { voiceId: 'Lotte', language: 'nl-NL', languageName: 'Dutch (Netherlands)', gender: 'female', neural: false },
  { voiceId: 'Ruben', language: 'nl-NL', languageName: 'Dutch (Netherlands)', gender: 'male', neural: false },
  { voiceId: 'Ewa', language: 'pl-PL', languageName: 'Polish (Poland)', gender: 'female', neural: false },
  { voiceId: 'Jacek', language: 'pl-PL', languageName: 'Polish (Poland)', gender: 'male', neural: false },
  { voiceId: 'Jan', language: 'pl-PL', languageName: 'Polish (Poland)', gender: 'male', neural: false },
  { voiceId: 'Maja', language: 'pl-PL', languageName: 'Polish (Poland)', gender: 'female', neural: false },
  { voiceId: 'Ola', language: 'pl-PL', languageName: 'Polish (Poland)', gender: 'female', neural: true },
  { voiceId: 'Camila', language: 'pt-BR', languageName: 'Brazilian Portuguese', gender: 'female', neural: true },
  { voiceId: 'Ricardo', language: 'pt-BR', languageName: 'Brazilian Portuguese', gender: 'male', neural: false },
  { voiceId: 'Thiago', language: 'pt-BR', languageName: 'Brazilian Portuguese', gender: 'male', neural: true },
  { voiceId: 'Vitoria', language: 'pt-BR', languageName: 'Brazilian Portuguese', gender: 'female', neural: true },
  { voiceId: 'Cristiano', language: 'pt-PT', languageName: 'European Portuguese', gender: 'male', neural: false },
  { voiceId: 'Ines', language: 'pt-PT', languageName: 'European Portuguese', gender: 'female', neural: true },
  { voiceId: 'Carmen', language: 'ro-RO', languageName: 'Romanian (Romania)', gender: 'female', neural: false },
  { voiceId: 'Maxim', language: 'ru-RU', languageName: 'Russian (Russia)', gender: 'male', neural: false },
  { voiceId: 'Tatyana', language: 'ru-RU', languageName: 'Russian (Russia)', gender: 'female', neural: false },
  { voiceId: 'Astrid', language: 'sv-SE', languageName: 'Swedish (Sweden)', gender: 'female', neural: false },
  { voiceId: 'Elin', language: 'sv-SE', languageName: 'Swedish (Sweden)', gender: 'female', neural: true },
  { voiceId: 'Burcu', language: 'tr-TR', languageName: 'Turkish (Türkiye)', gender: 'female', neural: true },
  { voiceId: 'Filiz', language: 'tr-TR', languageName: 'Turkish (Türkiye)', gender: 'female', neural: false },
  { voiceId: 'Hiujin', language: 'yue-CN', languageName: 'Cantonese (China)', gender: 'female', neural: true },
  { voiceId: 'Zhiyu', language: 'zh-CN', languageName: 'Chinese (China)', gender: 'female', neural: true },
];
