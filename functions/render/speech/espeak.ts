/**
 * espeak-ng as a library (the Emscripten build of @echogarden/espeak-ng-emscripten, plain JavaScript and its voice
 * data): runs anywhere Node runs, no native binary, no network. Its synthesis reports every word and phoneme with
 * its place in the audio: the captions and the mouths follow the engine's own timing, in every language. The text
 * is data handed to a function (never a command line): nothing in it is read as an option.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { TimedWord } from '#domain/captions';
import type { SpeechScript, SpokenPiece } from '#domain/lexicon';
import { espeakVoiceArgument, type SpeechVoice } from '#domain/voices';
import { wavFromPcm16 } from '#media/wav';
import type { SpeechEngine, SpeechResult, TimedPhoneme } from '../engine/types.ts';
import { SpokenText } from './spoken-text.ts';

/**
 * The module of the espeak-ng library build (@echogarden/espeak-ng-emscripten): ESPEAK_MODULE_PATH, else
 * `espeak-ng.js` next to the running module (the render bundle copies it and its espeak-ng.data beside index.mjs),
 * else the npm package's.
 */
function espeakModulePath(): string {
  if (process.env.ESPEAK_MODULE_PATH) return pathToFileURL(process.env.ESPEAK_MODULE_PATH).href;
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'espeak-ng.js');
  if (existsSync(bundled)) return pathToFileURL(bundled).href;
  return pathToFileURL(createRequire(import.meta.url).resolve('@echogarden/espeak-ng-emscripten')).href;
}

/** The voice to speak with, and optionally its rate and pitch. */
interface EspeakVoiceSettings {
  /** A voice file and its variant (`roa/es+f3`). */
  voice: string;
  /** Words per minute (espeak-ng's default is 175). */
  rate?: number;
  /** 0-99 (espeak-ng's default is 50). */
  pitch?: number;
  /**
   * Read in the thread's kept instance, restored to its memory as it was when its voice was set, rather than in a
   * fresh one (espeak-worker.mjs): the same audio, without the half second of CPU of an instance's start. A fresh
   * instance is the reference the kept one is tested against.
   */
  reuse?: boolean;
  /**
   * Stop reading once the audio passes this many seconds (the synthesis callback asks espeak-ng to abort): the reading
   * is then cut, a little longer than this, and its `stopped` is set.
   */
  stopAfterSeconds?: number;
}

/** What espeak-ng reports while it speaks: a word (its place in the text: 1-based code points), a phoneme (IPA), a sentence, the end. */
interface EspeakEvent {
  type: 'word' | 'phoneme' | 'sentence' | 'end';
  position: number;
  length: number;
  /** Where in the audio, in milliseconds. */
  ms: number;
  /** A phoneme's IPA with its stress mark (`ˈɑː`); empty for a pause. */
  name?: string | number;
}

/** One synthesis: 16-bit samples, and the events that time them. */
interface EspeakSpoken {
  samples: Int16Array;
  sampleRate: number;
  events: EspeakEvent[];
  /** Set when the reading was cut at EspeakVoiceSettings.stopAfterSeconds. */
  stopped?: boolean;
}

/** A voice espeak-ng has: its file (`gmw/en-US`), name, gender (1 male, 2 female, 0 none) and languages by priority. */
export interface EspeakListedVoice {
  identifier: string;
  name: string;
  gender: number;
  languages: { priority: number; name: string }[];
}

interface EspeakReply {
  id: number;
  spoken?: EspeakSpoken;
  voices?: EspeakListedVoice[];
  error?: string;
}

/**
 * The thread that runs espeak-ng (espeak-worker.mjs, next to this module or to the bundle's index.mjs), started on
 * first use and kept for the life of the process; it holds the voice data. While nothing waits for it, it does not
 * keep the process alive. A thread that dies (or is stopped for running too long) fails only its own runs; the next
 * run starts a new one.
 */
interface EspeakThread {
  worker: Worker;
  waiting: Map<number, { resolve: (reply: EspeakReply) => void; reject: (error: Error) => void }>;
}
let current: EspeakThread | undefined;
let nextRun = 0;

/** Far beyond any clip: espeak-ng speaks the longest text a clip may have in a few seconds. */
const RUN_TIMEOUT_MS = 120_000;

function espeakThread(): EspeakThread {
  if (current) return current;
  // No inherited command-line options: they are the host's (a loader, `--input-type` of an `-e` script), not the thread's.
  const worker = new Worker(new URL('./espeak-worker.mjs', import.meta.url), { workerData: { modulePath: espeakModulePath() }, execArgv: [] });
  const thread: EspeakThread = { worker, waiting: new Map() };
  const failAll = (error: Error) => {
    if (current === thread) current = undefined;
    for (const run of thread.waiting.values()) run.reject(error);
    thread.waiting.clear();
  };
  worker.on('message', (reply: EspeakReply) => {
    const run = thread.waiting.get(reply.id);
    thread.waiting.delete(reply.id);
    if (!thread.waiting.size) worker.unref();
    if (reply.error !== undefined) run?.reject(new Error(`espeak-ng failed: ${reply.error}`));
    else run?.resolve(reply);
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the espeak-ng thread stopped (exit code ${code})`)));
  worker.unref();
  current = thread;
  return thread;
}

/** One request to the thread; a run still going after `timeoutMs` stops the thread. */
function askEspeak(op: 'speak' | 'voices', request: unknown, timeoutMs: number): Promise<EspeakReply> {
  const thread = espeakThread();
  const id = nextRun++;
  return new Promise<EspeakReply>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A run that never ends holds its thread: the thread is stopped, failing what it held; the next run starts anew.
      if (current === thread) current = undefined;
      void thread.worker.terminate();
    }, timeoutMs);
    timer.unref();
    thread.waiting.set(id, {
      resolve: (reply) => (clearTimeout(timer), resolve(reply)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    thread.worker.ref();
    thread.worker.postMessage({ id, op, request });
  });
}

/**
 * espeak-ng speaks `ssml` (an SSML document: the library reads markup in every text) with `settings`, on its own
 * thread: in a fresh instance, or the kept one (`settings.reuse`).
 * @internal Exported for its tests.
 */
export async function speakSsml(ssml: string, settings: EspeakVoiceSettings, timeoutMs = RUN_TIMEOUT_MS): Promise<EspeakSpoken> {
  const reply = await askEspeak('speak', { ...settings, text: ssml }, timeoutMs);
  return reply.spoken!;
}

/** The voices espeak-ng has (the catalog is built from them: infra/voices). */
export async function espeakVoices(): Promise<EspeakListedVoice[]> {
  return (await askEspeak('voices', undefined, RUN_TIMEOUT_MS)).voices!;
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

/** espeak-ng's SSML for emphasis (it reads the level). */
const EMPHASIS_TAG = (level: string) => `<emphasis level="${level}">`;

/**
 * What espeak-ng is given for a phrase: an SSML document (the library reads markup in any text, so the text is
 * always escaped), with espeak-ng's own `<emphasis>` and `<say-as interpret-as="characters">` where the script has them.
 */
function phraseText(phrase: Phrase): SpokenText {
  const argument = new SpokenText();
  argument.markup('<speak>');
  for (const piece of phrase.pieces) {
    if (piece.emphasis) argument.markup(EMPHASIS_TAG(piece.emphasis));
    if (piece.spell) argument.markup('<say-as interpret-as="characters">');
    argument.say(...withoutPhonemeInput(piece.text, piece.spans), { xml: true });
    if (piece.spell) argument.markup('</say-as>');
    if (piece.emphasis) argument.markup('</emphasis>');
    argument.space();
  }
  argument.markup('</speak>');
  return argument;
}

/** UTF-16 offset of each code point of `text` (and of its end): espeak-ng counts places in code points. */
function codePointOffsets(text: string): number[] {
  const offsets: number[] = [];
  let unit = 0;
  for (const c of text) {
    offsets.push(unit);
    unit += c.length;
  }
  offsets.push(unit);
  return offsets;
}

/**
 * The words and phonemes of one synthesis, timed from its events: a phoneme lasts until the next one (a nameless
 * phoneme is a pause, not kept); a word from its event to the end of its last sound before the next word.
 * Word offsets are into `text` (the SSML given), in UTF-16 units.
 */
function timedSpeech(spoken: EspeakSpoken, text: string): { words: TimedWord[]; phonemes: TimedPhoneme[] } {
  const duration = spoken.samples.length / spoken.sampleRate;
  // espeak-ng counts an event's milliseconds as samples / floor(rate / 1000): at 22,050 Hz, 22 samples a
  // millisecond, so its times run 0.23 % ahead of the audio (125 ms after 55 s). Put back on the audio's clock.
  const perMs = spoken.sampleRate / 1000;
  const seconds = (e: EspeakEvent) => Math.min(duration, (e.ms * Math.floor(perMs)) / perMs / 1000);
  // In the order espeak-ng reported them: a word's event, then its sounds.
  const events = spoken.events.filter((e) => e.type === 'word' || e.type === 'phoneme' || e.type === 'end');
  const offsets = codePointOffsets(text);
  const at = (codePoint: number) => offsets[Math.max(0, Math.min(offsets.length - 1, codePoint))]!;
  const phonemes: TimedPhoneme[] = [];
  const words: (TimedWord & { sounds: number })[] = [];
  // For each event, the next one that is not a word (a phoneme or the end): where a sound stops. One pass from the end.
  const nextSound: (EspeakEvent | undefined)[] = [];
  for (let i = events.length - 1, after: EspeakEvent | undefined; i >= 0; i--) {
    nextSound[i] = after;
    if (events[i]!.type !== 'word') after = events[i];
  }
  events.forEach((event, i) => {
    if (event.type === 'word') {
      const [start, end] = wholeToken(text, at(event.position - 1));
      words.push({ start, end, startSeconds: seconds(event), endSeconds: seconds(event), sounds: 0 });
      return;
    }
    if (event.type !== 'phoneme') return;
    const name = String(event.name ?? '');
    const ipa = name.replace(/[ˈˌ]/g, '');
    const next = nextSound[i];
    const start = seconds(event);
    const end = next ? seconds(next) : duration;
    // A nameless phoneme is a pause: it ends the sound before it, and is no sound of its own.
    if (!ipa || end <= start) return;
    phonemes.push({ ipa, startSeconds: round(start), endSeconds: round(end), stress: name.includes('ˈ') ? 1 : name.includes('ˌ') ? 2 : 0 });
    const word = words[words.length - 1];
    if (!word) return;
    // The word's event comes a little before its first sound: a word is timed by its sounds.
    if (!word.sounds++) word.startSeconds = start;
    word.endSeconds = end;
  });
  return {
    words: words
      .map(({ sounds: _, ...word }) => ({ ...word, startSeconds: round(word.startSeconds), endSeconds: round(word.endSeconds) }))
      .filter((w) => w.end > w.start && w.endSeconds > w.startSeconds),
    phonemes,
  };
}

/**
 * A word as written: the run of text around where espeak-ng says a word starts, from white space (or markup) to
 * white space (or markup). So "there!" keeps its "!", and the parts of a number it reads as several words ("2026":
 * "two thousand and twenty-six") stay inside the number.
 */
function wholeToken(text: string, at: number): [number, number] {
  let from = at;
  let to = at;
  while (from > 0 && !/[\s>]/.test(text[from - 1]!)) from--;
  while (to < text.length && !/[\s<]/.test(text[to]!)) to++;
  return [from, to];
}

const shifted = <T extends { startSeconds: number; endSeconds: number }>(items: T[], seconds: number): T[] =>
  items.map((item) => ({ ...item, startSeconds: round(item.startSeconds + seconds), endSeconds: round(item.endSeconds + seconds) }));

/**
 * espeak-ng: each phrase (the speech between two breaks) is synthesised on its own, its words and phonemes timed by
 * the engine's own events; the phrases are joined with silences of the breaks' lengths.
 */
export class EspeakSpeechEngine implements SpeechEngine {
  readonly name = 'espeak';

  /**
   * `reuseInstance`: read in the espeak-ng thread's kept instance (EspeakVoiceSettings.reuse), a clip's speech as a
   * transcript's readings: every reading starts from the instance's just-started memory, so no clip hears another's.
   */
  constructor(private readonly reuseInstance = true) {}

  /**
   * `stopAfterSeconds`: stop reading once the speech passes it (a transcript read to be aligned to a recording, whose
   * reading much longer than the recording is refused anyway): the result is then cut, longer than that, and `stopped`.
   */
  async synthesize(
    script: SpeechScript,
    voice: SpeechVoice,
    workDir: string,
    { stopAfterSeconds }: { stopAfterSeconds?: number } = {},
  ): Promise<SpeechResult & { stopped?: boolean }> {
    const settings: EspeakVoiceSettings = { ...espeakSettings(voice), ...(this.reuseInstance && { reuse: true }) };
    const wavPath = join(workDir, 'speech.wav');
    let sampleRate = 0;
    const chunks: Int16Array[] = [];
    const words: TimedWord[] = [];
    const phonemes: TimedPhoneme[] = [];
    let seconds = 0;
    let pendingSilence = 0;
    let stopped = false;
    for (const phrase of phrasesOf(script)) {
      if (stopAfterSeconds !== undefined && sampleRate && seconds + pendingSilence > stopAfterSeconds) {
        stopped = true;
        break;
      }
      const text = phraseText(phrase);
      if (text.spans.some(Boolean)) {
        const left = stopAfterSeconds === undefined ? {} : { stopAfterSeconds: stopAfterSeconds - seconds - pendingSilence };
        const spoken = await speakSsml(text.text, { ...settings, ...left });
        if (sampleRate && spoken.sampleRate !== sampleRate) throw new Error('espeak-ng changed its sample rate between phrases');
        sampleRate = spoken.sampleRate;
        if (pendingSilence) chunks.push(new Int16Array(Math.round(pendingSilence * sampleRate)));
        seconds += pendingSilence;
        pendingSilence = 0;
        const timed = timedSpeech(spoken, text.text);
        words.push(...shifted(text.wordsInShown(timed.words), seconds));
        phonemes.push(...shifted(timed.phonemes, seconds));
        chunks.push(spoken.samples);
        seconds += spoken.samples.length / sampleRate;
        if (spoken.stopped) {
          stopped = true;
          break;
        }
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
    return { wavPath, sampleRate, durationSeconds: total / sampleRate, words, phonemes, ...(stopped && { stopped }) };
  }
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;

/**
 * espeak-ng reads `[[…]]` as raw phonemes: a caller's `[[` (in the text, a template value, a lexicon entry) is
 * broken up by a space, so what is said is what is written, as with any other engine. The added space stands for
 * the `[` before it in the shown text.
 * @internal Exported for its tests.
 */
export function withoutPhonemeInput(text: string, spans: readonly [number, number][] = []): [string, [number, number][]] {
  let out = '';
  const outSpans: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    out += text[i];
    outSpans.push(spans[i] ?? [i, i + 1]);
    if (text[i] === '[' && text[i + 1] === '[') {
      out += ' ';
      outSpans.push(spans[i] ?? [i, i + 1]);
    }
  }
  return [out, outSpans];
}

/** `espeak:<voice>+<variant>` with the bot's delivery, as espeak-ng's options. */
function espeakSettings(voice: SpeechVoice): EspeakVoiceSettings {
  const argument = espeakVoiceArgument(voice.id);
  if (!argument) throw new Error(`not an espeak-ng voice of the catalog: "${voice.id}"`);
  return { voice: argument, rate: voice.rate, pitch: voice.pitch };
}
