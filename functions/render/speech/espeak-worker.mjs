// espeak-ng in its own thread (see espeak.ts): the library build of @echogarden/espeak-ng-emscripten, whose
// synthesis reports each word and each phoneme with its place in the audio. It runs synchronously for a few
// hundred milliseconds per clip; here it does not hold up the render's event loop, which meanwhile downloads and
// inspects the clip's background. Plain JavaScript, so that the same file runs from the repository and, bundled
// by infra/scripts/bundle-render.ts, next to the render image's index.mjs (with espeak-ng.data beside it).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

// The program seeds its random numbers from the clock, and voices with breath in them (Ava's en-us+f3, most female
// variants) mix that noise into the sound: with a running clock the same text sounded a little different from one
// second to the next. This thread runs nothing else, so its clock is stopped at the epoch; with a fresh instance
// per run, the same text and voice give the same audio, sample for sample.
Date.now = () => 0;

const { default: createEspeak } = await import(workerData.modulePath);

/** espeak-ng.data, the voices and dictionaries (24 MB): next to the bundle's thread, or next to the package's module. */
function dataPath() {
  const bundled = join(dirname(fileURLToPath(import.meta.url)), 'espeak-ng.data');
  return existsSync(bundled) ? bundled : join(dirname(fileURLToPath(workerData.modulePath)), 'espeak-ng.data');
}
/** Read once per thread; every instance gets a copy (it takes the buffer over). */
const data = readFileSync(dataPath());
/** A new object each time: the program keeps the one it is given as its own state. */
const moduleOptions = () => ({
  getPreloadedPackage: () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
  print: () => {},
  printErr: () => {},
});

const EVENT_TYPES = new Set(['word', 'phoneme', 'sentence', 'end']);

/** An instance with `voice` set at `rate` and `pitch`, and its module (its memory). */
async function instance({ voice, rate, pitch }) {
  const module = await createEspeak(moduleOptions());
  const engine = new module.eSpeakNGWorker();
  if (engine.set_voice(voice) !== 0) throw new Error(`espeak-ng has no voice "${voice}"`);
  if (rate !== undefined) engine.set_rate(rate);
  if (pitch !== undefined) engine.set_pitch(pitch);
  return { module, engine };
}

/**
 * The longest text (UTF-16 units) a kept instance reads: its binding's string buffer is made this large (4 bytes a
 * unit, UTF-8's most) before its memory is copied, so that it never moves after. A transcript's phrase of 12,000
 * characters with its markup escaped is well under it; a longer text is read in a fresh instance.
 */
const KEPT_TEXT_UNITS = 65_536;

/**
 * The instance kept for runs that ask for it (`reuse`: a transcript's readings for its alignment), with a copy of its
 * memory taken once its voice was set: every such run starts from that copy, so it reads as if it were that instance's
 * first run, the same text giving the same audio whatever was read before (espeak-ng draws random numbers, for a
 * voice's breath among others). Starting an instance costs about half a second of CPU (compiling the program, copying
 * its 24 MB of data, loading its phonemes), more than reading a sentence; copying 17 MB of memory back, milliseconds.
 */
let kept;

async function keptInstance(settings) {
  const key = JSON.stringify([settings.voice, settings.rate, settings.pitch]);
  if (kept?.key !== key) {
    kept = undefined;
    const { module, engine } = await instance(settings);
    // The binding grows its string buffer at the call after one that did not fit (the voice set again): now, not later.
    engine.set_voice('x'.repeat(4 * KEPT_TEXT_UNITS));
    if (engine.set_voice(settings.voice) !== 0) throw new Error(`espeak-ng has no voice "${settings.voice}"`);
    if (settings.rate !== undefined) engine.set_rate(settings.rate);
    if (settings.pitch !== undefined) engine.set_pitch(settings.pitch);
    kept = { key, module, engine, memory: module.HEAPU8.slice() };
  }
  const { module, memory } = kept;
  module.HEAPU8.set(memory);
  // Memory grown by a run since: back to zeros, as it was before it grew.
  if (module.HEAPU8.length > memory.length) module.HEAPU8.fill(0, memory.length);
  return kept.engine;
}

/**
 * One synthesis in a fresh instance (or the kept one): the samples (16-bit), the sample rate, and the word and phoneme
 * events; cut (`stopped`) once its audio passes `stopAfterSeconds`, when given.
 */
async function speak({ voice, rate, pitch, text, reuse, stopAfterSeconds }) {
  const keep = reuse && text.length <= KEPT_TEXT_UNITS;
  const engine = keep ? await keptInstance({ voice, rate, pitch }) : (await instance({ voice, rate, pitch })).engine;
  const chunks = [];
  const events = [];
  const stopAfterSamples = stopAfterSeconds === undefined ? Number.POSITIVE_INFINITY : stopAfterSeconds * engine.samplerate;
  let read = 0;
  let stopped = false;
  try {
    engine.synthesize(text, (samples, batch) => {
      if (samples?.length) chunks.push(samples);
      read += samples?.length ?? 0;
      for (const e of batch)
        if (EVENT_TYPES.has(e.type))
          events.push({ type: e.type, position: e.text_position, length: e.word_length, ms: e.audio_position, name: e.id });
      // Non-zero asks espeak-ng to stop (its synthesis callback's contract): a reading past its bound is not finished.
      stopped = read > stopAfterSamples;
      return stopped ? 1 : 0;
    });
  } catch (error) {
    // A run that failed inside the program may leave what its memory copy does not hold (its stack pointer, its
    // table of callbacks) where it stopped: the next run starts a new instance.
    if (keep) kept = undefined;
    throw error;
  }
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const samples = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return { samples, sampleRate: engine.samplerate, events, ...(stopped && { stopped }) };
}

/** The voices espeak-ng has (not its variants): file, name, gender, languages by priority. */
async function voices() {
  const module = await createEspeak(moduleOptions());
  const engine = new module.eSpeakNGWorker();
  const listed = engine.list_voices();
  return listed.map((voice, i) => ({ ...voice, gender: engine.get_voices(i).get_gender() }));
}

parentPort.on('message', async ({ id, op, request }) => {
  try {
    if (op === 'voices') {
      parentPort.postMessage({ id, voices: await voices() });
      return;
    }
    const spoken = await speak(request);
    parentPort.postMessage({ id, spoken }, [spoken.samples.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
