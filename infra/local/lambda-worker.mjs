// One Lambda execution environment: runs in its own worker thread with exactly its function's environment.
// Plain JavaScript so that it can register tsx before the first TypeScript module (the handler) loads; the
// import of the handler is the cold start, where the function reads its configuration.
import { register as registerHooks } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

// tsx keeps what it compiled under os.tmpdir(), read once when its hooks thread starts (here, from this thread's
// environment). TMPDIR is this environment's own /tmp, removed when the environment ends: with it, every cold start
// would compile the function's TypeScript anew. The hooks thread is made with the runtime's own TMPDIR instead, so
// that every environment (and every runtime on this machine) finds the modules already compiled.
// A bundle (./function-bundles.ts) is plain JavaScript: no compiler.
if (!workerData.bundled) {
  const ownTmp = process.env.TMPDIR;
  process.env.TMPDIR = workerData.compileCacheTmp;
  register();
  process.env.TMPDIR = ownTmp;
  registerHooks('./compiler-hooks.mjs', import.meta.url);
}

const serializeError = (error) =>
  error instanceof Error
    ? { errorType: error.name || 'Error', errorMessage: error.message, stack: error.stack }
    : { errorType: 'Error', errorMessage: String(error) };

const started = Date.now();
let handler;
try {
  const module = await import(workerData.entryUrl);
  handler = module[workerData.handlerExport];
  if (typeof handler !== 'function') {
    throw Object.assign(new Error(`${workerData.entry} does not export a function named "${workerData.handlerExport}"`), {
      name: 'Runtime.HandlerNotFound',
    });
  }
  parentPort.postMessage({ type: 'ready', initMs: Date.now() - started });
} catch (error) {
  parentPort.postMessage({ type: 'init-error', error: serializeError(error) });
}

parentPort.on('message', async ({ id, event, context: base }) => {
  const context = {
    ...base,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, base.deadline - Date.now()),
    done: () => {},
    succeed: () => {},
    fail: () => {},
  };
  delete context.deadline;
  try {
    const result = await new Promise((resolve, reject) => {
      const callback = (error, value) => (error ? reject(error) : resolve(value));
      const returned = handler(event, context, callback);
      if (returned && typeof returned.then === 'function') returned.then(resolve, reject);
      else if (handler.length < 3) resolve(returned);
    });
    // Lambda returns the JSON serialisation of the result (undefined becomes null).
    parentPort.postMessage({ type: 'result', id, json: JSON.stringify(result ?? null) });
  } catch (error) {
    parentPort.postMessage({ type: 'error', id, error: serializeError(error) });
  }
});
