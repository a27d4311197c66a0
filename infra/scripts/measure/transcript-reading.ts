/**
 * `npx tsx infra/scripts/measure/transcript-reading.ts`: how long espeak-ng's en-us voice reads a transcript's
 * digits, numbers, symbols and spelled-out words, against a letter of English prose: the measure behind
 * domain/recordings.ts LETTERS_SAID_PER_DIGIT and LETTERS_SAID_PER_SPELLED_LETTER (a recorded clip's transcript is read by espeak-ng to be aligned, and create refuses one whose
 * reading passes the length its limit was sized for). Prints seconds of speech per digit (or per letter, for prose).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { speechScriptOf } from '#domain/lexicon';
import { EspeakSpeechEngine } from '#functions/render/speech/espeak.ts';

const engine = new EspeakSpeechEngine(true);
const CASES: readonly (readonly [string, string])[] = [
  ['prose', "I recalled how often I had been told that the lady's fortune was large, and went on. ".repeat(4)],
  ['1234567890 joined', '1234567890'.repeat(20)],
  ['digits spaced', '1 2 3 4 5 6 7 8 9 0 '.repeat(10)],
  ['2 digits', '47 '.repeat(70)],
  ['3 digits', '947 '.repeat(50)],
  ['4 digits (years)', '2024 '.repeat(40)],
  ['7 digits', '1234567 '.repeat(25)],
  ['1,234,567', '1,234,567 '.repeat(20)],
  ['decimals', '3.14159265 '.repeat(20)],
  ['Arabic-Indic digits', '١٢٣٤ '.repeat(40)],
  ['full-width digits', '１２３４ '.repeat(40)],
  ['a½', 'a½ '.repeat(60)],
  ['a²', 'a² '.repeat(60)],
  ['aⅫ (a Roman numeral)', 'aⅫ '.repeat(60)],
  ['www (a word without a vowel, spelled)', 'www '.repeat(60)],
  ['bcdfg (spelled)', 'bcdfg '.repeat(40)],
  ['XKCD (capitals)', 'XKCD '.repeat(50)],
  ['a! (a sentence a letter)', 'a! '.repeat(60)],
  ['I. (a sentence a letter)', 'I. '.repeat(60)],
  ['a? (a question a letter)', 'a? '.repeat(60)],
  ['Go! (a sentence a word)', 'Go! '.repeat(60)],
  ['a, (a clause a letter)', 'a, '.repeat(60)],
  ['a; (a clause a letter)', 'a; '.repeat(60)],
  ['a (a word a letter)', 'a '.repeat(60)],
  ['a... (an ellipsis a letter)', 'a... '.repeat(60)],
];
const work = mkdtempSync(join(tmpdir(), 'vidbot-transcript-reading-'));
try {
  for (const [label, text] of CASES) {
    const spoken = await engine.synthesize(speechScriptOf(text.trim()), { id: 'espeak:en-us+m3' }, mkdtempSync(join(work, 'case-')));
    const digits = text.match(/[\p{Nd}\p{No}\p{Nl}]/gu)?.length ?? 0;
    const letters = text.match(/\p{L}/gu)?.length ?? 0;
    const per = digits
      ? `${((spoken.durationSeconds - 0.074 * letters) / digits).toFixed(3)} s a digit (its letters at 0.074 s)`
      : `${(spoken.durationSeconds / letters).toFixed(3)} s a letter`;
    console.log(`${label}: ${digits} digits, ${letters} letters, ${spoken.durationSeconds.toFixed(1)} s of speech: ${per}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
