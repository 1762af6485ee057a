/**
 * Facts about the pinned espeak-ng 1.0.2 WebAssembly build that the runtime relies on, and the
 * few binary helpers that use them. Checked against the file's SHA-256 so a different build
 * fails loudly at warm-up instead of misbehaving.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export const ESPEAK_WASM_SHA256 = "10d24bb7e4124e983aa9cd8cd96c52c8ea4b607d81956ec70846684e2827d532";

/**
 * Indirect-function-table slot of the CLI's SynthCallback(short *wav, int n, espeak_EVENT *ev).
 * Found by hooking the seven (i32,i32,i32)->i32 slots during a synthesis: only this one receives
 * sample buffers and event lists.
 */
export const SYNTH_CALLBACK_SLOT = 24;

/** espeak_EVENT on wasm32: 7 ints then an 8-byte union. */
export const EVENT_SIZE = 36;
export const EVENT_TYPE = 0;
export const EVENT_TEXT_POSITION = 8;
export const EVENT_LENGTH = 12;
export const EVENT_SAMPLE = 20;
export const EVENT_ID = 28;
export const EventType = { listTerminated: 0, word: 1, sentence: 2, mark: 3, play: 4, end: 5, msgTerminated: 6, phoneme: 7, sampleRate: 8 } as const;

export const ESPEAK_SAMPLE_RATE = 22050;
export const ESPEAK_DATA = "/usr/local/share/espeak-ng-data/";

export function espeakWasmPath(): string {
  return createRequire(import.meta.url).resolve("espeak-ng/dist/espeak-ng.wasm");
}

let compiled: Promise<WebAssembly.Module> | null = null;

/** Compiles the 18.5 MB module once per process; workers receive the compiled module. */
export function compileEspeak(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const bytes = await readFile(espeakWasmPath());
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (digest !== ESPEAK_WASM_SHA256) {
      throw new Error(`espeak-ng.wasm is not the pinned 1.0.2 build (sha256 ${digest}); re-derive SYNTH_CALLBACK_SLOT before upgrading`);
    }
    return WebAssembly.compile(bytes);
  })();
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

/**
 * A wasm function of type (i32, i32, i32) -> i32 that calls `fn`: only functions made by wasm
 * can be stored in a wasm table, so this tiny module wraps our JS callback.
 */
export function wasmCallback(fn: (a: number, b: number, c: number) => number): WebAssembly.ExportValue {
  // prettier-ignore
  const bytes = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,             // magic, version
    0x01, 0x08, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x01, 0x7f, // type 0: (i32 i32 i32) -> i32
    0x02, 0x07, 0x01, 0x01, 0x65, 0x01, 0x66, 0x00, 0x00,       // import "e" "f" : type 0
    0x03, 0x02, 0x01, 0x00,                                     // one function of type 0
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x01,                   // export "f" = function 1
    0x0a, 0x0c, 0x01, 0x0a, 0x00,                               // code: one body, no locals
    0x20, 0x00, 0x20, 0x01, 0x20, 0x02, 0x10, 0x00, 0x0b,       // local.get 0..2; call 0; end
  ]);
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { f: fn } });
  return instance.exports.f;
}

/**
 * The span of linear memory holding the embedded espeak-ng-data files. Emscripten hands these
 * bytes to MEMFS without copying and never writes them, so a state snapshot can skip them.
 */
export function embeddedFilesSpan(memory: WebAssembly.Memory, table: number): { start: number; end: number } {
  const u32 = new Uint32Array(memory.buffer);
  let start = Infinity;
  let end = 0;
  for (let p = table; u32[p >> 2] !== 0; p += 12) {
    const len = u32[(p + 4) >> 2];
    const content = u32[(p + 8) >> 2];
    start = Math.min(start, content);
    end = Math.max(end, content + len);
  }
  if (!(end > start)) throw new Error("no embedded files found in espeak-ng memory");
  return { start, end };
}
