/**
 * espeak-ng's own list of what it speaks, read from the build the render function runs (the library's voice list,
 * as its command line's `--voices` shows it), and turned into the catalog's rows. Shared by the build (`npm run voices:build`) and the test
 * that checks the committed catalog still matches the engine.
 */
import { createHash } from 'node:crypto';
import { espeakVoices, speakSsml } from '../../functions/render/speech/espeak.ts';

/** One of espeak-ng's voices, as `espeak-ng --voices` lists it. */
export interface EspeakListedVoice {
  /** The "Language" column: espeak-ng's language tag, lower case (e.g. `en-gb-x-rp`). */
  language: string;
  /** "Age/Gender": M, F or - (unknown). */
  gender: 'M' | 'F' | '-';
  /** "VoiceName", underscores for spaces (e.g. `English_(Great_Britain)`). */
  name: string;
  /** "File", under espeak-ng-data/voices (e.g. `gmw/en-GB-x-rp`). */
  file: string;
}

const GENDER: Record<number, EspeakListedVoice['gender']> = { 1: 'M', 2: 'F' };

/** Voice files that are no language a caller speaks: espeak-ng's own test voice ("xextan-test"). */
const NOT_OFFERED = new Set(['art/xex']);

/** The languages of the espeak-ng build the render function runs, as its `--voices` lists them (by language). */
export async function espeakVoiceList(): Promise<EspeakListedVoice[]> {
  const voices = await espeakVoices();
  return voices
    .filter((v) => !NOT_OFFERED.has(v.identifier))
    .map((v) => ({ language: v.languages[0]!.name, gender: GENDER[v.gender] ?? '-', name: v.name.replace(/ /g, '_'), file: v.identifier }))
    .sort((a, b) => a.language.localeCompare(b.language, 'en') || a.file.localeCompare(b.file, 'en'));
}

/** A short hash of what espeak-ng says with the voice (a file or a name, `+variant` or not), or undefined if it has no such voice. */
export async function speechHash(voice: string, text = 'one two three'): Promise<string | undefined> {
  try {
    const spoken = await speakSsml(`<speak>${text}</speak>`, { voice });
    return createHash('sha256').update(new Uint8Array(spoken.samples.buffer)).digest('hex').slice(0, 16);
  } catch {
    return undefined;
  }
}
