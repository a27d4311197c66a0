// espeak-ng in its own thread (see espeak.ts). The WebAssembly program runs synchronously for a few hundred
// milliseconds per clip; here it does not hold up the render's event loop, which meanwhile downloads and
// inspects the clip's background. Plain JavaScript, so that the same file runs from the repository and, bundled
// by infra/scripts/bundle-render.ts, next to the render image's index.mjs.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import ESpeakNg from 'espeak-ng';

/** Compiled once per thread (18 MB of wasm); each run gets a fresh instance. */
const compiled = WebAssembly.compile(readFileSync(workerData.wasmPath));

/**
 * The program's imports with its wall clock stopped at the epoch. espeak-ng seeds rand() from time(), and voices
 * with breath in them (Ava's en-us+f3, most female variants) mix that noise into the sound: with a running clock the
 * same text sounded a little different from one second to the next. With the clock stopped, the same text and voice
 * give the same audio, byte for byte. (The program reads the clock for nothing else that reaches the sound.)
 */
function reproducible(imports) {
  const stopped = () => 0;
  return Object.fromEntries(
    Object.entries(imports).map(([name, functions]) => [
      name,
      'emscripten_date_now' in functions ? { ...functions, emscripten_date_now: stopped } : functions,
    ]),
  );
}

/** One run of the espeak-ng program: its printed lines, and the file it wrote (`output`), if asked for and written. */
parentPort.on('message', async ({ id, args, output }) => {
  const fail = (error) => parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  try {
    const module = await compiled;
    const lines = [];
    const instance = await ESpeakNg({
      arguments: args,
      instantiateWasm: (imports, done) => {
        // The program's main() runs inside done(): what it throws is this run's failure, not the thread's.
        WebAssembly.instantiate(module, reproducible(imports))
          .then((created) => done(created, module))
          .catch(fail);
        return {};
      },
      // The runtime prints a harmless "keepRuntimeAlive" note; keep its chatter out of the logs.
      print: (line) => lines.push(line),
      printErr: (line) => lines.push(line),
    });
    let file;
    if (output) {
      try {
        file = instance.FS.readFile(output);
      } catch {
        file = undefined;
      }
    }
    // The WAV's buffer is handed over, not copied (the instance is dropped).
    parentPort.postMessage({ id, lines, file }, file && file.byteOffset === 0 && file.byteLength === file.buffer.byteLength ? [file.buffer] : []);
  } catch (error) {
    fail(error);
  }
});
