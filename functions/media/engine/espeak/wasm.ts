/**
 * Facts about the pinned espeak-ng 1.0.2 WebAssembly build that the runtime relies on, and the
 * few binary helpers that use them. Checked against the file's SHA-256 so a different build
 * fails loudly at warm-up instead of misbehaving.
 */
import { encodeU32 } from "../../audio/wasm/patch.js";
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

/** The compiled module and what the runtime learnt from its bytes; structured-cloneable to workers. */
export interface EspeakBuild {
  module: WebAssembly.Module;
  /** Address of sbrk's program break in linear memory, or null if sbrk was not recognised. */
  breakAddress: number | null;
}

let compiled: Promise<EspeakBuild> | null = null;

/** Compiles the 18.5 MB module once per process; workers receive the compiled module. */
export function compileEspeak(): Promise<EspeakBuild> {
  compiled ??= (async () => {
    const bytes = await readFile(espeakWasmPath());
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (digest !== ESPEAK_WASM_SHA256) {
      throw new Error(`espeak-ng.wasm is not the pinned 1.0.2 build (sha256 ${digest}); re-derive SYNTH_CALLBACK_SLOT before upgrading`);
    }
    return { module: await WebAssembly.compile(bytes), breakAddress: findBreakAddress(bytes) };
  })();
  compiled.catch(() => {
    compiled = null;
  });
  return compiled;
}

/**
 * Emscripten's sbrk(increment), as compiled into this build, with holes (`null`) for the
 * operands that vary between builds: the break's address (twice), the callee indices. In C:
 *
 *   old = *BRK; new = old + ((increment + 7) & ~7);
 *   if ((increment && new <= old) || (new > memory_size() && !emscripten_resize_heap(new))) {
 *     errno = ENOMEM; return -1;
 *   }
 *   *BRK = new; return old;
 *
 * so the break never moves down: after a line it is the highest the line took it.
 */
// prettier-ignore
const SBRK_BODY: ReadonlyArray<number | "brk" | "memsize" | "resize" | "errno"> = [
  0x01, 0x02, 0x7f,                         // locals: 2 x i32
  0x41, 0x00, 0x28, 0x02, "brk",            // i32.const 0; i32.load offset=BRK
  0x22, 0x01, 0x20, 0x00,                   // local.tee old; local.get increment
  0x41, 0x07, 0x6a, 0x41, 0x78, 0x71,       // + 7, & -8
  0x22, 0x02, 0x6a, 0x21, 0x00,             // local.tee inc; add; local.set new
  0x02, 0x40, 0x02, 0x40,                   // block; block
  0x20, 0x02, 0x45, 0x0d, 0x00,             //   inc == 0: skip the overflow test
  0x20, 0x00, 0x20, 0x01, 0x4d, 0x0d, 0x01, //   new <= old: fail
  0x0b, 0x02, 0x40,                         // end; block
  0x20, 0x00, 0x10, "memsize", 0x4d, 0x0d, 0x00, // new <= memory size: no resize
  0x20, 0x00, 0x10, "resize", 0x45, 0x0d, 0x01,  // !emscripten_resize_heap(new): fail
  0x0b,                                     // end
  0x41, 0x00, 0x20, 0x00, 0x36, 0x02, "brk", // i32.store offset=BRK new
  0x20, 0x01, 0x0f, 0x0b,                   // return old; end
  0x10, "errno", 0x41, 0x30, 0x36, 0x02, 0x00, // errno = ENOMEM (48)
  0x41, 0x7f, 0x0b,                         // return -1
];
/** The helper sbrk calls for the memory size: memory.size << 16. */
const MEMSIZE_BODY = [0x00, 0x3f, 0x00, 0x41, 0x10, 0x74, 0x0b];

/**
 * Finds the address of sbrk's break in the module's bytes: exactly one function body must be
 * SBRK_BODY calling the `env.emscripten_resize_heap` import, its memory-size helper must be
 * MEMSIZE_BODY, and the address's encoding must occur in the code section only in sbrk's load
 * and store (a guard against other code using it as a constant, e.g. emscripten_get_sbrk_ptr;
 * a coincidental match only costs the fallback). Anything else gives null, and the runtime then
 * restores all of memory before each line, as it always did.
 */
export function findBreakAddress(bytes: Uint8Array): number | null {
  try {
    return parseBreakAddress(bytes);
  } catch {
    return null;
  }
}

function parseBreakAddress(bytes: Uint8Array): number | null {
  let pos = 8;
  const u32 = () => {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (pos >= bytes.length) throw new Error("truncated");
      const b = bytes[pos++];
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
    }
    throw new Error("bad LEB128");
  };
  const name = () => {
    const n = u32();
    pos += n;
    return new TextDecoder().decode(bytes.subarray(pos - n, pos));
  };
  const limits = () => {
    const flags = bytes[pos++];
    u32();
    if (flags & 1) u32();
  };
  if (bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) return null;
  let funcImports = 0;
  let resize = -1;
  let code: { start: number; end: number } | null = null;
  const bodies: Array<{ start: number; end: number }> = [];
  while (pos < bytes.length) {
    const id = bytes[pos++];
    const size = u32();
    const end = pos + size;
    if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const mod = name();
        const field = name();
        const kind = bytes[pos++];
        if (kind === 0) {
          if (mod === "env" && field === "emscripten_resize_heap") resize = funcImports;
          funcImports++;
          u32();
        } else if (kind === 1) {
          pos++;
          limits();
        } else if (kind === 2) limits();
        else if (kind === 3) pos += 2;
        else return null;
      }
    } else if (id === 10) {
      code = { start: pos, end };
      for (let n = u32(); n > 0; n--) {
        const len = u32();
        bodies.push({ start: pos, end: pos + len });
        pos += len;
      }
    }
    pos = end;
  }
  if (resize < 0 || !code) return null;
  const body = (fn: number) => bodies[fn - funcImports];
  let found: number | null = null;
  for (const b of bodies) {
    const holes = matchBody(bytes, b, SBRK_BODY);
    if (!holes || holes.resize !== resize) continue;
    if (found !== null) return null; // two candidates: ambiguous
    const helper = body(holes.memsize);
    if (!helper || !matchBody(bytes, helper, MEMSIZE_BODY)) return null;
    found = holes.brk;
  }
  if (found === null) return null;
  // The break's address as the code section spells it (load/store offset, or a constant).
  const leb = encodeU32(found);
  let uses = 0;
  for (let i = bytes.indexOf(leb[0], code.start); i !== -1 && i + leb.length <= code.end; i = bytes.indexOf(leb[0], i + 1)) {
    if (leb.every((v, k) => bytes[i + k] === v)) uses++;
  }
  return uses === 2 ? found : null;
}

/** Matches a function body against a template; holes are unsigned LEB128 values, equal per name. */
function matchBody(bytes: Uint8Array, b: { start: number; end: number }, template: ReadonlyArray<number | string>): Record<string, number> | null {
  const holes: Record<string, number> = {};
  let pos = b.start;
  for (const t of template) {
    if (pos >= b.end) return null;
    if (typeof t === "number") {
      if (bytes[pos++] !== t) return null;
      continue;
    }
    let v = 0;
    let shift = 0;
    for (;;) {
      if (pos >= b.end || shift > 28) return null;
      const x = bytes[pos++];
      v += (x & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(x & 0x80)) break;
    }
    if (t in holes && holes[t] !== v) return null;
    holes[t] = v;
  }
  return pos === b.end ? holes : null;
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
