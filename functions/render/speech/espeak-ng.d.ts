/** The espeak-ng npm package (an Emscripten build of espeak-ng) ships no types. */
declare module 'espeak-ng' {
  export interface ESpeakNgModule {
    FS: { readFile(path: string): Uint8Array; writeFile(path: string, data: string | Uint8Array): void };
  }
  export interface ESpeakNgOptions {
    arguments: string[];
    wasmBinary?: Uint8Array;
    instantiateWasm?: (imports: object, done: (instance: unknown, module: unknown) => void) => object;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
  const ESpeakNg: (options: ESpeakNgOptions) => Promise<ESpeakNgModule>;
  export default ESpeakNg;
}
