// The espeak-ng package ships no types: this is the slice of its Emscripten module we use.
declare module "espeak-ng" {
  export interface EspeakFS {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string, opts: { encoding: "utf8" }): string;
    readFile(path: string): Uint8Array;
    analyzePath(path: string): { exists: boolean };
    readdir(path: string): string[];
    isDir(mode: number): boolean;
    stat(path: string): { mode: number };
  }
  export interface EspeakModule {
    FS: EspeakFS;
  }
  export type WasmImports = Record<string, Record<string, WebAssembly.ImportValue>>;
  export interface EspeakModuleOptions {
    arguments: string[];
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    stdin?: () => number | null;
    preRun?: Array<(m: EspeakModule) => void>;
    onRuntimeInitialized?: () => void;
    instantiateWasm?: (
      imports: WasmImports,
      done: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => WebAssembly.Exports,
    ) => WebAssembly.Exports | Record<string, never>;
  }
  const ESpeakNg: (opts: EspeakModuleOptions) => Promise<EspeakModule>;
  export default ESpeakNg;
}
