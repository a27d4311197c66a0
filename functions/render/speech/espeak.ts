/**
 * espeak-ng, the WebAssembly build from npm: runs anywhere Node runs, no native binary, no network.
 * The text is one argv element of the program (never a shell string); a leading space keeps text that
 * starts with "-" from being read as an option.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ESpeakNg from 'espeak-ng';
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

/** The bits of the WebAssembly global used here (the project's TS lib has no DOM/wasm value types). */
interface Wasm {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: object): Promise<unknown>;
}
const wasm = (globalThis as unknown as { WebAssembly: Wasm }).WebAssembly;

let compiled: Promise<object> | undefined;
/** Compiled once per process (18 MB of wasm); each synthesis gets a fresh instance. */
const wasmModule = () => (compiled ??= wasm.compile(readFileSync(espeakWasmPath())));

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

/**
 * Runs the espeak-ng program once, in a fresh instance of the compiled module: its printed lines, and its
 * in-memory file system to read what it wrote.
 */
export async function runEspeak(args: string[]): Promise<{ lines: string[]; readFile(path: string): Uint8Array }> {
  const module = await wasmModule();
  const exitCode = process.exitCode;
  const lines: string[] = [];
  const instance = await ESpeakNg({
    arguments: args,
    instantiateWasm: (imports, done) => {
      void wasm.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
    // The runtime prints a harmless "keepRuntimeAlive" note; keep its chatter out of the logs.
    print: (line) => lines.push(line),
    printErr: (line) => lines.push(line),
  });
  // Emscripten sets the process exit code when its main() returns; that is not ours to change.
  process.exitCode = exitCode;
  return { lines, readFile: (path) => instance.FS.readFile(path) };
}

export class EspeakSpeechEngine implements SpeechEngine {
  readonly name = 'espeak';

  async synthesize(text: string, voice: SpeechVoice, workDir: string): Promise<SpeechResult> {
    const settings = espeakSettings(voice);
    const spoken = speakable(text);
    const output = 'speech.wav';
    const run = await runEspeak([
      '-v', settings.voice,
      ...(settings.rate !== undefined ? ['-s', String(settings.rate)] : []),
      ...(settings.pitch !== undefined ? ['-p', String(settings.pitch)] : []),
      '-w', output,
      ` ${spoken.text}`,
    ]);
    let bytes: Buffer;
    try {
      bytes = Buffer.from(run.readFile(output));
    } catch {
      throw new Error(`espeak-ng produced no audio: ${run.lines.slice(-3).join(' | ')}`);
    }
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
