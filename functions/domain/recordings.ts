/**
 * Clips that speak the caller's recording (audio_url, audio_upload) instead of a synthesised voice: which
 * transcripts can be aligned, and the uploads a video takes for its clips. Pure rules and ports: no AWS here.
 */
import type { ClipInput, ClipReference } from './clip.ts';
import { InvalidRequestError } from './errors.ts';
import { limits } from './limits.ts';
import type { UploadStore } from './ports.ts';
import { type ClaimDeps, claimUpload } from './uploads.ts';
import { baseLanguageOf, espeakVoiceOfLanguage, type Voice } from './voices.ts';

/**
 * The languages whose transcripts an acoustic model aligns: SoundSwallower's US English. Its French model scored a
 * real French speaker's own sentences under the bar that tells a wrong transcript (docs/your-voice.md), so French
 * is aligned through espeak-ng's voice of it.
 */
const ALIGNMENT_LANGUAGES = ['en'] as const;
export type AlignmentLanguage = (typeof ALIGNMENT_LANGUAGES)[number];

/**
 * The languages whose transcripts are aligned through espeak-ng's voice of them: those its refusal thresholds
 * (synthesis-alignment.ts MAX_PATH_COST_RATIO, MAX_SHUFFLED_RATIO) were measured on with real readers, besides English
 * (docs/your-voice.md). Another language would be aligned, or refused, by a bar nobody measured for it.
 */
const SYNTHESIS_ALIGNMENT_LANGUAGES = { fr: 'French', de: 'German', es: 'Spanish', da: 'Danish', fi: 'Finnish' } as const;

/** The languages a recording's transcript may be in, by name, for the refusal that names them. */
export const TRANSCRIPT_LANGUAGE_NAMES = ['English', ...Object.values(SYNTHESIS_ALIGNMENT_LANGUAGES)].join(', ');

/**
 * How a recording's transcript is aligned: through espeak-ng speaking it (`espeakVoice`), or by an acoustic model
 * (`model`) when the recording is short enough for it. A language without an espeak-ng voice cannot be aligned:
 * the model alone fails on long recordings (docs/your-voice.md#long-recordings).
 */
export type TranscriptAlignment = { espeakVoice: string; model?: AlignmentLanguage };

/** How a transcript in `voice`'s language is aligned; undefined when it cannot be (no espeak-ng voice of it). */
export function transcriptAlignmentOf(voice: Voice | undefined): TranscriptAlignment | undefined {
  if (!voice) return undefined;
  const language = baseLanguageOf(voice.language);
  const model = ALIGNMENT_LANGUAGES.find((l) => l === language);
  const espeakVoice = espeakVoiceOfLanguage(voice);
  if (!espeakVoice || (!model && !Object.hasOwn(SYNTHESIS_ALIGNMENT_LANGUAGES, language))) return undefined;
  return model ? { espeakVoice, model } : { espeakVoice };
}

/**
 * The script the transcripts of every aligned language (English, French, German, Spanish, Danish, Finnish) are
 * written in. A transcript whose letters are mostly in another script is not in the voice's language: espeak-ng would
 * read all of it (up to 12,000 characters) before the warp refused it, so create refuses it instead.
 */
const TRANSCRIPT_SCRIPT = { name: 'Latin', letter: /(?=\p{L})\p{Script=Latin}/gu } as const;
/**
 * Letters, and symbols (emoji, modifiers, maths, Roman numerals) with the marks that enclose them (keycaps), which
 * espeak-ng reads out as words: digits stay neutral here (years, prices), and count in the reading's length below.
 */
const SAID = /[\p{L}\p{S}\p{Me}\p{Nl}]/gu;
const SYMBOL = /[\p{S}\p{Me}\p{Nl}]/gu;
/**
 * What espeak-ng also says by a name of its own, counted as symbols (LETTERS_SAID_PER_SYMBOL each): a combining mark
 * left after NFC composition (a letter with an accent composes into one; a Khmer or Myanmar vowel sign on a Latin
 * letter does not: it reads 9,200 s for 12,000 characters, against 680 s of prose), and punctuation beyond a
 * sentence's own (`* \ % # @ / § ¶`: "asterisk", "backslash", 2,000-2,900 s for 12,000 characters).
 */
const NAMED = /[\p{Mn}\p{Mc}]|(?![.,;:!?'"‘’“”«»¿¡…·])\p{Po}/gu;
/**
 * A symbol is read out by its name ("grinning face", 13 letters; "dollars", 7; "n-ary summation", 15): about this
 * many letters said.
 */
const LETTERS_SAID_PER_SYMBOL = 12;
/** Digits and other numbers (fractions, superscripts), which espeak-ng reads as number words. */
const DIGIT = /[\p{Nd}\p{No}]/gu;
/**
 * A digit is read as part of a number ("one million, two hundred and thirty-four thousand..."): measured with
 * espeak-ng's en-us voice (docs/your-voice.md), up to 0.51 s of speech a digit ("1,234,567") against 0.074 s a
 * letter of English prose, so about this many letters said.
 */
const LETTERS_SAID_PER_DIGIT = 7;
/**
 * A pause: a run of `, ; : ! ? …` wherever it stands ("a!a!" pauses at each), or of any other punctuation not
 * followed by a letter or a digit (a sentence's point, a closing quote or bracket, a dash between words; not an
 * apostrophe or a hyphen inside a word, the point of "3.14" or the first of "e.g.", nor the point after an English
 * title, "Mr.", which espeak-ng reads through).
 */
const PAUSE = /[,;:!?…]+|(?<!\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr))\p{P}+(?![\p{L}\p{N}])/gu;
/**
 * espeak-ng pauses at each (measured with its en-us voice, infra/scripts/measure/transcript-reading.ts, beyond the
 * letter before it): 0.33 s at a comma, 0.41 s at a semicolon, a colon or an ellipsis, 0.48-0.52 s at the end of a
 * sentence, against 0.074 s a letter of prose: so about this many letters. "a! " a thousand times is read for 580 s.
 */
const LETTERS_PAUSED_PER_MARK = 6;
/** A word: a run of letters. */
const WORD = /\p{L}+/gu;
/** A vowel of the aligned languages, accents taken off (Danish æ and ø, French œ, Finnish y). */
const VOWEL = /[aeiouyæøœ]/i;
/**
 * A word without a vowel ("www", "BBC", "Mr") is spelled out letter by letter ("double-u double-u double-u"):
 * measured with espeak-ng's en-us voice, up to 0.335 s of speech a letter ("www") against 0.074 s a letter of prose
 * (docs/your-voice.md), so each of its letters counts as about this many.
 */
const LETTERS_SAID_PER_SPELLED_LETTER = 5;

/** English titles without a vowel that espeak-ng reads as words ("mister", "doctor", "saint"), not letter by letter. */
const TITLES = new Set(['Mr', 'Mrs', 'Ms', 'Dr', 'St', 'Jr', 'Sr']);

/** The letters of the words `text` spells out rather than reads. */
function spelledLetters(text: string): number {
  let letters = 0;
  for (const [word] of text.matchAll(WORD)) if (!VOWEL.test(word.normalize('NFD')) && !TITLES.has(word)) letters += word.length;
  return letters;
}

/**
 * Why a recording's transcript cannot be what a recording in its voice's (aligned) language says, or undefined:
 * - more than half of what it says (its letters and symbols) is outside that language's script's letters (a Russian
 *   or Japanese transcript with an English voice; a run of emoji);
 * - or, its symbols (and marks and punctuation said by name) read by their names, its digits as numbers, its
 *   words without a vowel spelled out and its punctuation paused at, it says
 *   more than maxRecordedTranscriptChars letters, the reading that bound was sized for (a letter between every two
 *   emoji; a transcript of digits alone; "www www www ..."; a sentence a letter, "a! a! ...").
 * One pass of seven regular expressions: cheap at create.
 */
export function transcriptScriptProblem(transcript: string, languageName: string): string | undefined {
  const text = transcript.normalize('NFC');
  const said = text.match(SAID)?.length ?? 0;
  const symbols = text.match(SYMBOL)?.length ?? 0;
  const named = text.match(NAMED)?.length ?? 0;
  const digits = text.match(DIGIT)?.length ?? 0;
  const pauses = text.match(PAUSE)?.length ?? 0;
  const spelled = spelledLetters(text);
  const inScript = text.match(TRANSCRIPT_SCRIPT.letter)?.length ?? 0;
  if (said > 0 && inScript * 2 < said)
    return `is mostly in another script: this clip's voice speaks ${languageName}, written in the ${TRANSCRIPT_SCRIPT.name} script; give the transcript of the recording in the voice's language, or name a voice of the language the transcript is in`;
  const read =
    said +
    (LETTERS_SAID_PER_SYMBOL - 1) * symbols +
    LETTERS_SAID_PER_SYMBOL * named +
    LETTERS_SAID_PER_DIGIT * digits +
    LETTERS_PAUSED_PER_MARK * pauses +
    (LETTERS_SAID_PER_SPELLED_LETTER - 1) * spelled;
  if (read > limits.maxRecordedTranscriptChars)
    return `is read out as more than ${limits.maxRecordedTranscriptChars.toLocaleString('en-US')} letters: each symbol or emoji is said by its name (about ${LETTERS_SAID_PER_SYMBOL} letters), each digit as part of a number (about ${LETTERS_SAID_PER_DIGIT}), each letter of a word without a vowel spelled out (about ${LETTERS_SAID_PER_SPELLED_LETTER}) and each pause at punctuation (about ${LETTERS_PAUSED_PER_MARK}); write the words the recording says`;
  return undefined;
}

/** An upload a request names, and the field that names it (where a refusal is reported). */
interface NamedUpload {
  id: string;
  path: string;
}

const uploadsOf = (clips: readonly (ClipInput | ClipReference)[], prefix = ''): NamedUpload[] =>
  clips.flatMap((clip, index) =>
    'audio_upload' in clip && clip.audio_upload !== undefined ? [{ id: clip.audio_upload, path: `${prefix}clips[${index}].audio_upload` }] : [],
  );

/**
 * Takes every upload the clips name for the video `videoId`: each must be the caller's audio upload, stored and
 * unused (uploads.ts claimUpload). All are checked before any is taken, so a request refused for one upload
 * leaves the others unused.
 */
export async function claimRecordings(
  clips: readonly (ClipInput | ClipReference)[],
  tenantId: string,
  videoId: string,
  deps: ClaimDeps | undefined,
): Promise<string[]> {
  const named = uploadsOf(clips);
  if (named.length && !deps) throw new InvalidRequestError(named.map((n) => ({ path: n.path, message: 'is not accepted here: give audio_url' })));
  return deps ? claimAll(named, tenantId, { video: videoId }, deps) : [];
}

/**
 * Takes every upload a batch's rows name for the batch `batchId` (each row's video then speaks it): one id named
 * by two rows, or twice in one row, is refused, as is any upload claimUpload refuses; problems are named by row
 * (`rows[3].clips[0].audio_upload`). `dryRun` checks without taking.
 */
export async function claimRowRecordings(
  rows: readonly { clips: readonly (ClipInput | ClipReference)[] }[],
  tenantId: string,
  batchId: string,
  deps: ClaimDeps,
  dryRun = false,
): Promise<string[]> {
  const named = rows.flatMap((row, i) => uploadsOf(row.clips, `rows[${i}].`));
  if (!dryRun) return claimAll(named, tenantId, { batch: batchId }, deps);
  await checkAll(named, tenantId, { batch: batchId }, deps);
  return [];
}

/** Who takes the uploads: a video (its clips name them) or a batch (its rows do). */
type Taker = { video: string } | { batch: string };
const takerId = (taker: Taker) => ('video' in taker ? taker.video : taker.batch);

async function checkAll(named: NamedUpload[], tenantId: string, taker: Taker, deps: ClaimDeps): Promise<void> {
  const usedBy = takerId(taker);
  const twiceWhere = 'video' in taker ? 'another clip of this video' : 'another clip or row of this batch';
  const ids = named.map((n) => n.id);
  const twice = named.find((n, i) => ids.indexOf(n.id) !== i);
  if (twice) throw new InvalidRequestError([{ path: twice.path, message: `names an upload ${twiceWhere} already uses; upload the file again` }]);
  // The store itself with markUsed answered: a spread would drop the methods of its class (the DynamoDB adapter's).
  const uploads: UploadStore = Object.assign(Object.create(deps.uploads), { markUsed: async () => true });
  const dryRun = { ...deps, uploads };
  for (const n of named) await claimUpload(tenantId, n.id, { kind: 'audio', path: n.path, usedBy }, dryRun);
}

async function claimAll(named: NamedUpload[], tenantId: string, taker: Taker, deps: ClaimDeps): Promise<string[]> {
  await checkAll(named, tenantId, taker, deps);
  const usedBy = takerId(taker);
  const taken: string[] = [];
  try {
    for (const n of named) {
      await claimUpload(tenantId, n.id, { kind: 'audio', path: n.path, usedBy }, deps);
      taken.push(n.id);
    }
  } catch (error) {
    await releaseRecordings(taken, tenantId, usedBy, deps);
    throw error;
  }
  return named.map((n) => n.id);
}

/** Gives back the uploads a video or batch took when the request fails after taking them, so a retry can name them again. */
export async function releaseRecordings(uploadIds: readonly string[], tenantId: string, usedBy: string, deps: ClaimDeps | undefined) {
  if (!deps) return;
  await Promise.all(uploadIds.map((id) => deps.uploads.release(tenantId, id, usedBy)));
}
