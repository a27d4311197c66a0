/**
 * espeak-ng, the WebAssembly build from npm: runs anywhere Node runs, no native binary, no network.
 * The text is one argv element of the program (never a shell string); a leading space keeps text that
 * starts with "-" from being read as an option.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TimedWord } from '#domain/captions';
import type { SpeechScript, SpokenPiece } from '#domain/lexicon';
import { espeakVoiceArgument, type SpeechVoice } from '#domain/voices';
import { parseWav, wavFromPcm16 } from '#media/wav';
import type { SpeechEngine, SpeechResult } from '../engine/types.ts';
import { alignWords } from './alignment.ts';
import { SpokenText, spelledOut } from './spoken-text.ts';

/**
 * The .wasm file: ESPEAK_WASM_PATH, else `espeak-ng.wasm` next to the running module (the render bundle
 * copies it beside index.mjs), else the npm package.
 */
function espeakWasmPath(): string {
  if (process.env.ESPEAK_WASM_PATH) return process.env.ESPEAK_WASM_PATH;
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'espeak-ng.wasm');
  if (existsSync(bundled)) return bundled;
  return createRequire(import.meta.url).resolve('espeak-ng/dist/espeak-ng.wasm');
}

/** The voice to speak with, and optionally its rate and pitch. */
interface EspeakVoiceSettings {
  /** What espeak-ng's `-v` takes: a voice file and its variant (`roa/es+f3`). */
  voice: string;
  /** Words per minute (espeak-ng's default is 175). */
  rate?: number;
  /** 0-99 (espeak-ng's default is 50). */
  pitch?: number;
}

interface EspeakRun {
  lines: string[];
  /** The file the run wrote, when asked for and written. */
  file?: Uint8Array;
}
interface EspeakReply extends EspeakRun {
  id: number;
  error?: string;
}

/**
 * The thread that runs espeak-ng (espeak-worker.mjs, next to this module or to the bundle's index.mjs), started on
 * first use and kept for the life of the process; it holds the compiled module. While nothing waits for it, it
 * does not keep the process alive. A thread that dies (or is stopped for running too long) fails only its own
 * runs; the next run starts a new one.
 */
interface EspeakThread {
  worker: Worker;
  waiting: Map<number, { resolve: (run: EspeakRun) => void; reject: (error: Error) => void }>;
}
let current: EspeakThread | undefined;
let nextRun = 0;

/** Far beyond any clip: espeak-ng speaks the longest text a clip may have in a few seconds. */
const RUN_TIMEOUT_MS = 120_000;

function espeakThread(): EspeakThread {
  if (current) return current;
  // No inherited command-line options: they are the host's (a loader, `--input-type` of an `-e` script), not the thread's.
  const worker = new Worker(new URL('./espeak-worker.mjs', import.meta.url), { workerData: { wasmPath: espeakWasmPath() }, execArgv: [] });
  const thread: EspeakThread = { worker, waiting: new Map() };
  const failAll = (error: Error) => {
    if (current === thread) current = undefined;
    for (const run of thread.waiting.values()) run.reject(error);
    thread.waiting.clear();
  };
  worker.on('message', ({ id, lines, file, error }: EspeakReply) => {
    const run = thread.waiting.get(id);
    thread.waiting.delete(id);
    if (!thread.waiting.size) worker.unref();
    if (error !== undefined) run?.reject(new Error(`espeak-ng failed: ${error}`));
    else run?.resolve({ lines, file });
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the espeak-ng thread stopped (exit code ${code})`)));
  worker.unref();
  current = thread;
  return thread;
}

/**
 * Runs the espeak-ng program once, in a fresh instance, on its own thread: what it printed, and `output` if it wrote it.
 * A run still going after `timeoutMs` stops the thread.
 * @internal Exported for its tests.
 */
export function runEspeak(args: string[], output?: string, timeoutMs = RUN_TIMEOUT_MS): Promise<EspeakRun> {
  const thread = espeakThread();
  const id = nextRun++;
  return new Promise<EspeakRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A run that never ends holds its thread: the thread is stopped, failing what it held; the next run starts anew.
      if (current === thread) current = undefined;
      void thread.worker.terminate();
    }, timeoutMs);
    timer.unref();
    thread.waiting.set(id, {
      resolve: (run) => (clearTimeout(timer), resolve(run)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    thread.worker.ref();
    thread.worker.postMessage({ id, args, output });
  });
}

/** A phrase: the speech between two breaks, and the silence after it. */
interface Phrase {
  pieces: (SpokenPiece & { kind: 'speech' })[];
  silenceAfter: number;
}

function phrasesOf(script: SpeechScript): Phrase[] {
  const phrases: Phrase[] = [{ pieces: [], silenceAfter: 0 }];
  for (const part of script.parts) {
    if (part.kind === 'break') {
      phrases[phrases.length - 1]!.silenceAfter += part.seconds;
      phrases.push({ pieces: [], silenceAfter: 0 });
    } else phrases[phrases.length - 1]!.pieces.push(part);
  }
  return phrases;
}

/** espeak-ng's SSML for emphasis (it reads the level) and spelling. */
const EMPHASIS_TAG = (level: string) => `<emphasis level="${level}">`;

/**
 * What espeak-ng is given for a phrase (plain text, or SSML with `-m` when a piece is emphasised or spelled) and
 * the same speech as plain words for alignment (a spelled word as its letters, each a word).
 */
function phraseTexts(phrase: Phrase): { argument: string; ssml: boolean; words: SpokenText } {
  const ssml = phrase.pieces.some((p) => p.emphasis || p.spell);
  const argument = new SpokenText();
  const words = new SpokenText();
  if (ssml) argument.markup('<speak>');
  for (const piece of phrase.pieces) {
    if (ssml && piece.emphasis) argument.markup(EMPHASIS_TAG(piece.emphasis));
    if (ssml && piece.spell) argument.markup('<say-as interpret-as="characters">');
    argument.say(piece.text, piece.spans, { xml: ssml });
    if (ssml && piece.spell) argument.markup('</say-as>');
    if (ssml && piece.emphasis) argument.markup('</emphasis>');
    const spelled = piece.spell ? spelledOut(piece.text, piece.spans) : piece;
    words.say(spelled.text, spelled.spans);
  }
  if (ssml) argument.markup('</speak>');
  return { argument: argument.text, ssml, words };
}

/**
 * espeak-ng: each phrase (the speech between two breaks) is synthesised on its own and its words aligned to its
 * own audio; the phrases are joined with silences of the breaks' lengths. A phrase with emphasis or spelling is
 * given as SSML (`-m`): espeak-ng's own `<emphasis>` and `<say-as interpret-as="characters">`. A text without
 * markup is one plain run, as it always was.
 */
export class EspeakSpeechEngine implements SpeechEngine {
  readonly name = 'espeak';

  async synthesize(script: SpeechScript, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const settings = espeakSettings(voice);
    const phrases = phrasesOf(script);
    const wavPath = join(workDir, 'speech.wav');
    let sampleRate = 0;
    const chunks: Int16Array[] = [];
    const words: TimedWord[] = [];
    let seconds = 0;
    let pendingSilence = 0;
    for (const phrase of phrases) {
      const texts = phraseTexts(phrase);
      if (texts.words.text) {
        const bytes = await this.speak(texts.argument, texts.ssml, settings);
        const pcm = parseWav(bytes);
        if (sampleRate && pcm.sampleRate !== sampleRate) throw new Error('espeak-ng changed its sample rate between phrases');
        sampleRate = pcm.sampleRate;
        if (phrases.length === 1) {
          // One phrase (no breaks): its WAV as espeak-ng wrote it.
          writeFileSync(wavPath, bytes);
          const aligned = texts.words.wordsInShown(alignWords(texts.words.text, pcm.samples, pcm.sampleRate));
          return { wavPath, sampleRate, durationSeconds: pcm.samples.length / sampleRate, words: aligned };
        }
        if (pendingSilence) chunks.push(new Int16Array(Math.round(pendingSilence * sampleRate)));
        seconds += pendingSilence;
        pendingSilence = 0;
        // espeak-ng's command line reports no word events: the words are aligned to the phrase's own pauses.
        for (const word of texts.words.wordsInShown(alignWords(texts.words.text, pcm.samples, pcm.sampleRate)))
          words.push({ ...word, startSeconds: round(word.startSeconds + seconds), endSeconds: round(word.endSeconds + seconds) });
        chunks.push(Int16Array.from(pcm.samples, (x) => Math.max(-32768, Math.min(32767, Math.round(x * 32768)))));
        seconds += pcm.samples.length / sampleRate;
      }
      pendingSilence += phrase.silenceAfter;
    }
    if (!sampleRate) throw new Error('espeak-ng was given nothing to say');
    // A break at the very end is a silence too (it ends the clip's speech later).
    if (pendingSilence) chunks.push(new Int16Array(Math.round(pendingSilence * sampleRate)));
    const total = chunks.reduce((n, c) => n + c.length, 0);
    const joined = new Int16Array(total);
    let at = 0;
    for (const chunk of chunks) {
      joined.set(chunk, at);
      at += chunk.length;
    }
    // Int16Array is in the machine's byte order: little-endian on every platform Node runs the render on.
    writeFileSync(wavPath, wavFromPcm16(Buffer.from(joined.buffer), sampleRate));
    return { wavPath, sampleRate, durationSeconds: total / sampleRate, words };
  }

  private async speak(argument: string, ssml: boolean, settings: EspeakVoiceSettings): Promise<Buffer> {
    const output = 'speech.wav';
    const run = await runEspeak(
      [
        ...(ssml ? ['-m'] : []),
        '-v',
        settings.voice,
        ...(settings.rate !== undefined ? ['-s', String(settings.rate)] : []),
        ...(settings.pitch !== undefined ? ['-p', String(settings.pitch)] : []),
        '-w',
        output,
        // A leading space keeps plain text that starts with "-" from being read as an option (SSML starts with "<").
        ssml ? withoutPhonemeInput(argument) : ` ${withoutPhonemeInput(argument)}`,
      ],
      output,
    );
    if (!run.file) throw new Error(`espeak-ng produced no audio: ${run.lines.slice(-3).join(' | ')}`);
    return Buffer.from(run.file.buffer, run.file.byteOffset, run.file.byteLength);
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * espeak-ng reads `[[…]]` as raw phonemes: a caller's `[[` (in the text, a template value, a lexicon entry) is
 * broken up, so what is said is what is written, as with any other engine.
 * @internal Exported for its tests.
 */
export const withoutPhonemeInput = (text: string) => text.replace(/\[(?=\[)/g, '[ ');

/** `espeak:<voice>+<variant>` with the bot's delivery, as espeak-ng's options. */
function espeakSettings(voice: SpeechVoice): EspeakVoiceSettings {
  const argument = espeakVoiceArgument(voice.id);
  if (!argument) throw new Error(`not an espeak-ng voice of the catalog: "${voice.id}"`);
  return { voice: argument, rate: voice.rate, pitch: voice.pitch };
}
