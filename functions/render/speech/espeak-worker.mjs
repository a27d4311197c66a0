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

/** One synthesis in a fresh instance: the samples (16-bit), the sample rate, and the word and phoneme events. */
async function speak({ voice, rate, pitch, text }) {
  const module = await createEspeak(moduleOptions());
  const engine = new module.eSpeakNGWorker();
  if (engine.set_voice(voice) !== 0) throw new Error(`espeak-ng has no voice "${voice}"`);
  if (rate !== undefined) engine.set_rate(rate);
  if (pitch !== undefined) engine.set_pitch(pitch);
  const chunks = [];
  const events = [];
  engine.synthesize(text, (samples, batch) => {
    if (samples?.length) chunks.push(samples);
    for (const e of batch)
      if (EVENT_TYPES.has(e.type)) events.push({ type: e.type, position: e.text_position, length: e.word_length, ms: e.audio_position, name: e.id });
    return 0;
  });
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const samples = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    samples.set(chunk, at);
    at += chunk.length;
  }
  return { samples, sampleRate: engine.samplerate, events };
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
