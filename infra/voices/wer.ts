/**
 * How well a machine understands an offline voice: the word error rate (WER) of CMU pocketsphinx (Debian's
 * `pocketsphinx` and `pocketsphinx-en-us`) on sentences spoken by the product's own espeak-ng engine
 * (EspeakSpeechEngine.synthesize with the clip's speech script, as a render speaks it), and the engine's CPU time
 * per second of speech. Used by `npm run voices:wer` and the intelligibility test.
 *
 * The recogniser is constrained to a closed vocabulary (VOCABULARY: the words of all the sentences below plus
 * Harvard lists 2 and 3, 250-odd words) in any order and any number (a JSGF word loop), not to the sentences
 * themselves: it still has to tell each word from every other word of the list, but it is not misled by a general
 * language model that has never heard a formant voice (with Debian's general en-us model every espeak-ng voice
 * scores 0.8-1.0, which ranks nothing). `--model general` measures with that model too.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { speechScriptOf } from '#domain/lexicon';
import type { SpeechVoice } from '#domain/voices';
import { runFfmpeg, SAFE_INPUT } from '#media/media';
import { EspeakSpeechEngine } from '../../functions/render/speech/espeak.ts';

const run = promisify(execFile);

/**
 * The sentences spoken: one 23-word presenter sentence (the kind a video says) and Harvard sentences (IEEE 1969,
 * list 1: phonetically balanced, the standard test of speech intelligibility).
 */
export const TEST_SENTENCES = [
  'Welcome back to the show. Today we look at three ways to save time at work, and what they mean for your team.',
  'The birch canoe slid on the smooth planks.',
  'Glue the sheet to the dark blue background.',
  "It's easy to tell the depth of a well.",
  'These days a chicken leg is a rare dish.',
  'Rice is often served in round bowls.',
  'The juice of lemons makes fine punch.',
  'The box was thrown beside the parked truck.',
  'The hogs were fed chopped corn and garbage.',
  'Four hours of steady work faced us.',
  'A large size in stockings is hard to sell.',
] as const;

/** Words the recogniser may hear that no test sentence says (Harvard lists 2 and 3): it must tell them apart. */
const DISTRACTOR_SENTENCES = [
  'The boy was there when the sun rose.',
  'A rod is used to catch pink salmon.',
  'The source of the huge river is the clear spring.',
  'Kick the ball straight and follow through.',
  'Help the woman get back to her feet.',
  'A pot of tea helps to pass the evening.',
  'Smoky fires lack flame and heat.',
  "The soft cushion broke the man's fall.",
  'The salt breeze came across from the sea.',
  'The girl at the booth sold fifty bonds.',
  'The small pup gnawed a hole in the sock.',
  'The fish twisted and turned on the bent hook.',
  'Press the pants and sew a button on the vest.',
  'The swan dive was far short of perfect.',
  'The beauty of the view stunned the young boy.',
  'Two blue fish swam in the tank.',
  'Her purse was full of useless trash.',
  'The colt reared and threw the tall rider.',
  'It snowed, rained, and hailed the same morning.',
  'Read verse out loud for pleasure.',
];

/**
 * A sentence as the words a transcript is compared with: lower case, no punctuation but the apostrophe.
 * @internal Exported for its tests.
 */
export const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);

/** Every word the recogniser knows. */
const VOCABULARY: readonly string[] = [...new Set([...TEST_SENTENCES, ...DISTRACTOR_SENTENCES].flatMap(wordsOf))].sort();

/**
 * Word-level edit distance (substitutions, deletions, insertions) between a reference and a transcript.
 * @internal Exported for its tests.
 */
export function wordEdits(reference: readonly string[], heard: readonly string[]): number {
  let previous = Array.from({ length: heard.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const row = [i];
    for (let j = 1; j <= heard.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (reference[i - 1] === heard[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[heard.length]!;
}

/** `general`: Debian's general en-us trigram model. `vocabulary`: the closed-vocabulary word loop (see above). */
export type RecogniserModel = 'vocabulary' | 'general';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/**
 * Recogniser options (pocketsphinx_continuous): a word insertion penalty of 0.01 instead of 0.65, so the word loop
 * does not fill every pause with "a" and "the"; no spectral noise subtraction (the speech is synthetic and clean:
 * subtracting an estimate of noise from digital silence only distorts it).
 */
const WORD_INSERTION_PENALTY = '0.01';

/** Whether pocketsphinx and its US English model are installed. */
export async function pocketsphinxInstalled(): Promise<boolean> {
  try {
    await run('pocketsphinx_continuous', ['-hmm', join(MODEL_DIR, 'en-us'), '-dict', '/dev/null', '-infile', '/dev/null', '-logfn', '/dev/null']);
  } catch (error) {
    // It exits non-zero on the empty input; what matters is that it ran (ENOENT: not installed).
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
  }
  return true;
}

/** The JSGF word loop over VOCABULARY. */
const grammar = () => `#JSGF V1.0;\ngrammar vocabulary;\npublic <words> = <word>+;\n<word> = ${VOCABULARY.join(' | ')};\n`;

/** What pocketsphinx hears in a WAV file (any rate: resampled to the 16 kHz mono it takes). */
async function transcribe(wavPath: string, workDir: string, model: RecogniserModel): Promise<string[]> {
  const input = join(workDir, 'recogniser-input.wav');
  await runFfmpeg(['-y', ...SAFE_INPUT, '-f', 'wav', '-i', wavPath, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', input], {
    budgetSeconds: 60,
    stallSeconds: false,
  });
  const constraint =
    model === 'general'
      ? ['-lm', join(MODEL_DIR, 'en-us.lm.bin')]
      : (writeFileSync(join(workDir, 'vocabulary.gram'), grammar()), ['-jsgf', join(workDir, 'vocabulary.gram')]);
  const { stdout } = await run(
    'pocketsphinx_continuous',
    [
      '-hmm',
      join(MODEL_DIR, 'en-us'),
      '-dict',
      join(MODEL_DIR, 'cmudict-en-us.dict'),
      ...constraint,
      '-infile',
      input,
      '-wip',
      WORD_INSERTION_PENALTY,
      '-remove_noise',
      'no',
      '-logfn',
      '/dev/null',
    ],
    { timeout: 120_000, maxBuffer: 1 << 20 },
  );
  return wordsOf(stdout);
}

export interface VoiceMeasure {
  /** Word errors over reference words, all sentences together. */
  wer: number;
  /** Seconds of CPU (the whole process: the engine's espeak-ng thread included) per second of speech. */
  cpuPerSecond: number;
  speechSeconds: number;
  /** What the recogniser heard. */
  heard: string;
}

const engine = new EspeakSpeechEngine();

/** Speaks every test sentence with `voice` through the product's espeak-ng engine and transcribes each. */
export async function measureVoice(voice: SpeechVoice, model: RecogniserModel = 'vocabulary'): Promise<VoiceMeasure> {
  const workDir = mkdtempSync(join(tmpdir(), 'voice-wer-'));
  try {
    // The first run compiles espeak-ng's WebAssembly: a cost per process, not per second of speech.
    await engine.synthesize(speechScriptOf('Ready.'), voice, workDir);
    // All sentences as one clip, a pause between them (the product's own `<break>`): the recogniser adapts to the
    // voice over the whole (its cepstral mean), as it would over a video's speech, instead of starting cold each time.
    const before = process.cpuUsage();
    const speech = await engine.synthesize(speechScriptOf(TEST_SENTENCES.join(' <break time="700ms"/> ')), voice, workDir);
    const used = process.cpuUsage(before);
    const heard = await transcribe(speech.wavPath, workDir, model);
    const reference = TEST_SENTENCES.flatMap(wordsOf);
    const cpuSeconds = (used.user + used.system) / 1e6;
    const speechSeconds = speech.durationSeconds;
    return { wer: wordEdits(reference, heard) / reference.length, cpuPerSecond: cpuSeconds / speechSeconds, speechSeconds, heard: heard.join(' ') };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
