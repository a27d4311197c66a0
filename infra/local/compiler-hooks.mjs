// A module hook beside tsx's, on the thread where tsx compiles TypeScript (a thread's module hooks all run on one
// hooks thread): it ends esbuild's compiler process there (about 15 MB, one per execution environment) once no
// module has loaded for a while. esbuild starts it again by itself when a later import needs compiling.
import { createRequire } from 'node:module';

const IDLE_MS = 5_000;
const esbuild = createRequire(import.meta.url)('esbuild');
let loading = 0;
let timer;
const stopWhenIdle = () => {
  timer = setTimeout(() => loading === 0 && void esbuild.stop(), IDLE_MS).unref();
};

/** Registered once the thread's first modules are loaded: the compiler may end unless more follow. */
export function initialize() {
  stopWhenIdle();
}

/** Registered after tsx, so it runs first and sees each load end, compiled or not. */
export async function load(url, context, nextLoad) {
  loading++;
  clearTimeout(timer);
  try {
    return await nextLoad(url, context);
  } finally {
    if (--loading === 0) stopWhenIdle();
  }
}
