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
import { espeakVoiceArgument, type SpeechVoice } from '#domain/voices';
import type { SpeechEngine, SpeechResult } from '../engine/types.ts';
import { parseWav } from '../engine/wav.ts';
import { alignWords } from './alignment.ts';

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

/**
 * What is spoken: the text without control characters, whitespace squeezed and trimmed; with where each of its
 * UTF-16 units came from in `text` (`origin[i]`; `origin[length]` is the end), so that word offsets found in
 * what was spoken point into the clip's own text.
 */
export function speakable(text: string): { text: string; origin: number[] } {
  let out = '';
  const origin: number[] = [];
  let pendingSpace = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds, to skip them
    if (/[\u0000-\u001f\u007f]|\s/.test(c)) {
      if (out.length && pendingSpace < 0) pendingSpace = i;
      continue;
    }
    if (pendingSpace >= 0) {
      out += ' ';
      origin.push(pendingSpace);
      pendingSpace = -1;
    }
    out += c;
    origin.push(i);
  }
  origin.push(origin.length ? origin[origin.length - 1]! + 1 : 0);
  return { text: out, origin };
}

/** Word offsets in the spoken text moved back into the clip's own text. */
export const wordsInOriginal = (origin: number[], words: TimedWord[]): TimedWord[] =>
  words.map((w) => ({ ...w, start: origin[w.start]!, end: origin[w.end - 1]! + 1 }));

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

export class EspeakSpeechEngine implements SpeechEngine {
  readonly name = 'espeak';

  async synthesize(text: string, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const settings = espeakSettings(voice);
    const spoken = speakable(text);
    const output = 'speech.wav';
    const run = await runEspeak(
      [
        '-v',
        settings.voice,
        ...(settings.rate !== undefined ? ['-s', String(settings.rate)] : []),
        ...(settings.pitch !== undefined ? ['-p', String(settings.pitch)] : []),
        '-w',
        output,
        ` ${spoken.text}`,
      ],
      output,
    );
    if (!run.file) throw new Error(`espeak-ng produced no audio: ${run.lines.slice(-3).join(' | ')}`);
    const bytes = Buffer.from(run.file.buffer, run.file.byteOffset, run.file.byteLength);
    const wavPath = join(workDir, 'speech.wav');
    writeFileSync(wavPath, bytes);
    const pcm = parseWav(bytes);
    // espeak-ng's command line reports no word events: the words are aligned to the audio's pauses.
    const words = wordsInOriginal(spoken.origin, alignWords(spoken.text, pcm.samples, pcm.sampleRate));
    return { wavPath, sampleRate: pcm.sampleRate, durationSeconds: pcm.samples.length / pcm.sampleRate, words };
  }
}

/** `espeak:<voice>+<variant>` with the bot's delivery, as espeak-ng's options. */
function espeakSettings(voice: SpeechVoice): EspeakVoiceSettings {
  const argument = espeakVoiceArgument(voice.id);
  if (!argument) throw new Error(`not an espeak-ng voice of the catalog: "${voice.id}"`);
  return { voice: argument, rate: voice.rate, pitch: voice.pitch };
}
