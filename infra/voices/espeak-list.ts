/**
 * espeak-ng's own list of what it speaks (`espeak-ng --voices`), read from the WebAssembly build the render
 * function runs, and turned into the catalog's rows. Shared by the build (`npm run voices:build`) and the test
 * that checks the committed catalog still matches the WASM.
 */
import { createHash } from 'node:crypto';
import { runEspeak } from '../../functions/render/speech/espeak.ts';

/** One row of `espeak-ng --voices`. */
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

/**
 * Parses the table `espeak-ng --voices[=variant]` prints: a header, then one voice a line,
 * `Pty Language Age/Gender VoiceName File Other-Languages`, separated by spaces (names have none).
 */
function parseVoiceList(lines: string[]): EspeakListedVoice[] {
  const rows: EspeakListedVoice[] = [];
  for (const line of lines) {
    const match = /^\s*(\d+)\s+(\S+)\s+(?:\d+|--)\/([MF-])\s+(\S+)\s+(\S+)/.exec(line);
    if (!match) continue;
    rows.push({ language: match[2]!, gender: match[3] as EspeakListedVoice['gender'], name: match[4]!, file: match[5]! });
  }
  return rows;
}

/** The languages (`--voices`) and the variants (`--voices=variant`) of the espeak-ng WASM. */
export async function espeakVoiceList(): Promise<{ languages: EspeakListedVoice[]; variants: EspeakListedVoice[] }> {
  const [languages, variants] = await Promise.all([runEspeak(['--voices']), runEspeak(['--voices=variant'])]);
  return { languages: parseVoiceList(languages.lines), variants: parseVoiceList(variants.lines) };
}

/** A short hash of what espeak-ng says with `-v voice` (a name or a file, `+variant` or not), or undefined if it refuses the voice. */
export async function speechHash(voice: string, text = 'one two three'): Promise<string | undefined> {
  const run = await runEspeak(['-v', voice, '-w', 'probe.wav', text], 'probe.wav');
  return run.file && createHash('sha256').update(run.file).digest('hex').slice(0, 16);
}
