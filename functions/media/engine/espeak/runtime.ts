/**
 * One long-lived eSpeak NG instance that synthesises line after line.
 *
 * The CLI's main() reads stdin line by line (`-m` makes each line SSML) and synthesises each
 * line before reading the next. We intercept three things:
 * - stdin reads (`fd_read` on fd 0): the moment the previous line is finished and the next is
 *   wanted. `nextLine` is called there, synchronously (a worker blocks in it until a job comes).
 * - the SynthCallback table slot: samples and word events arrive in our function instead of
 *   being written to a WAV file.
 * - linear memory: a snapshot taken at the first stdin read is restored before every line, so
 *   every line starts from the same engine state. eSpeak keeps state between utterances (phase,
 *   flutter, caches), which otherwise makes the same sentence differ by history; restoring makes
 *   output a pure function of the line, whichever worker runs it and whatever ran before.
 *
 * What the restore must cover (32 MiB of memory, fixed size): the stack and static data below
 * the embedded data files ([0, files.start), ~200 KB), not the files (read-only, ~18 MB), then
 * static data and the malloc heap up to the program break (~0.95 MB at the snapshot). Memory
 * above the break is written by nothing: the program allocates it only through sbrk, and sbrk
 * never moves the break down (see SBRK_BODY in wasm.ts), so the break after a line is the
 * highest it reached during the line and [files.end, break now) covers every byte the line
 * wrote; restoring that range from the snapshot (zeros above the snapshot's break) also puts the
 * break back. A line that loads a large dictionary (Russian: +8 MB) pays for what it took. If
 * the break's address was not recognised in the module or a check fails, all of memory is
 * restored, as before: the same result, 15.5 MB per line instead of ~1.2 MB.
 *
 * Instantiation (~100 ms) is paid once per worker; a line then costs the restore (~1.2 MB,
 * ~0.02 ms to copy; the full 15.5 MB took ~0.5 ms to copy and ~1.2 ms of CPU per line in all,
 * the rest presumably the synthesis after it starting on evicted caches) plus synthesis (a few
 * ms per sentence).
 */
import { concatInt16 } from "../../audio/bytes.js";
import ESpeakNg, { type EspeakModule } from "espeak-ng";
import {
  ESPEAK_DATA,
  type EspeakBuild,
  EVENT_ID,
  EVENT_LENGTH,
  EVENT_SAMPLE,
  EVENT_SIZE,
  EVENT_TEXT_POSITION,
  EVENT_TYPE,
  EventType,
  SYNTH_CALLBACK_SLOT,
  embeddedFilesSpan,
  wasmCallback,
} from "./wasm.js";

export interface EspeakEvent {
  type: number;
  /** 1-based code point index into the line. */
  position: number;
  /** Word length in code points (word events). */
  length: number;
  /** Sample index from the start of the line's audio. */
  sample: number;
  id: number;
}

export interface LineResult {
  pcm: Int16Array;
  events: EspeakEvent[];
}

export interface LineJob {
  /** One line of SSML, without newline; at most MAX_LINE_BYTES of UTF-8. */
  line: string;
  /** Contents of the voice file the line selects as `<voice name="timbre">`. */
  voiceFile: string;
}

/** Called at every stdin read: receives the previous line's output, returns the next line or null to stop. */
export type NextLine = (previous: LineResult | null, host: EspeakHost) => LineJob | null;

export interface EspeakHost {
  readDataFile(path: string): string;
  /** Names in a folder of the data files (without "." and ".."). */
  listDataDir(path: string): string[];
}

/** fgets in the CLI reads at most 999 bytes; longer lines would be cut into two syntheses. */
export const MAX_LINE_BYTES = 990;
export const SLOT_VOICE = "timbre";
/** What eSpeak's wall clock reads (time() and gettimeofday()): fixed, so output never depends on when a worker started. */
export const ENGINE_CLOCK_MS = 0;
const SLOT_PATH = `${ESPEAK_DATA}voices/${SLOT_VOICE}`;

export interface RunOptions {
  /** Restore all of memory before every line, never just the heap in use (the bench's same-run baseline). */
  fullReset?: boolean;
  /** Called after each restore with the bytes it copied or zeroed. */
  onReset?: (bytes: number) => void;
  /**
   * Tests: keep a copy of all of memory and, after every restore, check that memory outside the
   * data files is byte for byte the snapshot (throws on a difference). Costs ~33 MB per line.
   */
  checkReset?: boolean;
  /**
   * Phonemes instead of audio (the Piper engine): eSpeak runs quiet with `--ipa`, and every line
   * of IPA it prints (one per clause) is passed here before the next input line is read.
   */
  ipa?: (line: string) => void;
}

interface EspeakExports {
  memory: WebAssembly.Memory;
  __indirect_function_table: WebAssembly.Table;
  __emscripten_embedded_file_data: WebAssembly.Global;
  stackSave(): number;
  emscripten_stack_get_base(): number;
  emscripten_stack_get_end(): number;
}

interface Snapshot {
  /** [0, files.start): stack and static data. */
  low: Uint8Array;
  /** files.end: static data, then the heap. */
  highFrom: number;
  /** Memory from highFrom: up to the break if all above it was zero, else to the end. */
  high: Uint8Array;
  /** The break's address and value at the snapshot, or null for a full restore every line. */
  brk: { at: number; value: number } | null;
  /** checkReset: all of memory. */
  whole: Uint8Array | null;
}

const utf8 = new TextEncoder();

const ZEROS = new Uint8Array(1 << 16);

/** Whether mem[from..] is all zero: memcmp against a zero page (a JavaScript loop, run once and cold, took ~120 ms for 14 MB). */
function isZero(mem: Uint8Array, from: number): boolean {
  const zeros = Buffer.from(ZEROS.buffer);
  for (let i = from; i < mem.length; i += ZEROS.length) {
    const n = Math.min(ZEROS.length, mem.length - i);
    if (Buffer.compare(Buffer.from(mem.buffer, mem.byteOffset + i, n), n === ZEROS.length ? zeros : zeros.subarray(0, n)) !== 0) return false;
  }
  return true;
}

function takeSnapshot(ex: EspeakExports, breakAddress: number | null, opts: RunOptions): Snapshot {
  const files = embeddedFilesSpan(ex.memory, ex.__emscripten_embedded_file_data.value as number);
  const mem = new Uint8Array(ex.memory.buffer);
  const value = breakAddress === null ? 0 : new DataView(ex.memory.buffer).getUint32(breakAddress, true);
  const usable =
    !opts.fullReset &&
    breakAddress !== null &&
    // The break lies above the files, inside memory, and is itself in the restored range.
    files.end <= value &&
    value <= mem.length &&
    ((breakAddress >= files.end && breakAddress + 4 <= value) || breakAddress + 4 <= files.start) &&
    // The stack (which grows down from its base) lies in the low range, restored in full.
    ex.emscripten_stack_get_end() <= ex.emscripten_stack_get_base() &&
    ex.emscripten_stack_get_base() <= files.start &&
    // Nothing above the break yet, so restoring above it means zeroing.
    isZero(mem, value);
  return {
    low: mem.slice(0, files.start),
    highFrom: files.end,
    high: mem.slice(files.end, usable ? value : mem.length),
    brk: usable ? { at: breakAddress, value } : null,
    whole: opts.checkReset ? mem.slice() : null,
  };
}

/** Puts memory back as it was at the snapshot; returns the bytes written. */
function restoreSnapshot(ex: EspeakExports, snap: Snapshot): number {
  const mem = new Uint8Array(ex.memory.buffer);
  const highEnd = snap.highFrom + snap.high.length;
  mem.set(snap.low, 0);
  // Up to `to`: the snapshot's bytes, then zeros (memory above the break at the snapshot, and
  // any pages grown since, were zero). `to` is never below highEnd.
  let to = mem.length;
  if (snap.brk) {
    const now = new DataView(ex.memory.buffer).getUint32(snap.brk.at, true);
    // sbrk never lowers the break; a lower one means something else wrote it: restore it all.
    if (now >= snap.brk.value && now <= mem.length) to = now;
  }
  mem.set(snap.high, snap.highFrom);
  if (to > highEnd) mem.fill(0, highEnd, to);
  if (snap.whole) checkRestored(mem, snap);
  return snap.low.length + (to - snap.highFrom);
}

function checkRestored(mem: Uint8Array, snap: Snapshot): void {
  const whole = snap.whole!;
  const same = (from: number, to: number) => Buffer.from(mem.buffer, mem.byteOffset + from, to - from).equals(Buffer.from(whole.buffer, from, to - from));
  const ranges: Array<[number, number]> = [
    [0, snap.low.length],
    [snap.highFrom, whole.length],
  ];
  for (const [from, to] of ranges) {
    if (same(from, to)) continue;
    let at = from;
    while (mem[at] === whole[at]) at++;
    throw new Error(`eSpeak memory differs from the snapshot after the reset at ${at} (break now ${snap.brk ? new DataView(mem.buffer).getUint32(snap.brk.at, true) : "unknown"})`);
  }
  if (mem.length > whole.length && !isZero(mem, whole.length)) throw new Error("eSpeak memory grown since the snapshot is not zero after the reset");
}

export async function runEspeak(build: EspeakBuild, nextLine: NextLine, opts: RunOptions = {}): Promise<void> {
  let fs: EspeakModule["FS"] | null = null;
  let exports: EspeakExports | null = null;
  let input = new Uint8Array(0);
  let inputPos = 0;
  let samples: Int16Array[] = [];
  let events: EspeakEvent[] = [];
  let lineInFlight = false;
  let snapshot: Snapshot | null = null;
  let signature = "";
  const errors: string[] = [];

  const host: EspeakHost = {
    readDataFile: (path) => {
      if (!fs) throw new Error("eSpeak filesystem not ready");
      return fs.readFile(ESPEAK_DATA + path, { encoding: "utf8" });
    },
    listDataDir: (path) => {
      if (!fs) throw new Error("eSpeak filesystem not ready");
      return fs.readdir(ESPEAK_DATA + path).filter((n) => n !== "." && n !== "..");
    },
  };

  const onSynth = (wav: number, n: number, ev: number): number => {
    const ex = exports!;
    const view = new DataView(ex.memory.buffer);
    for (let p = ev; ; p += EVENT_SIZE) {
      const type = view.getInt32(p + EVENT_TYPE, true);
      if (type === EventType.listTerminated) break;
      if (type === EventType.sampleRate) continue;
      events.push({
        type,
        position: view.getInt32(p + EVENT_TEXT_POSITION, true),
        length: view.getInt32(p + EVENT_LENGTH, true),
        sample: view.getInt32(p + EVENT_SAMPLE, true),
        id: view.getInt32(p + EVENT_ID, true),
      });
    }
    if (wav !== 0 && n > 0) samples.push(new Int16Array(ex.memory.buffer, wav, n).slice());
    return 0;
  };

  const finishedLine = (): LineResult => {
    const result = { pcm: concatInt16(samples), events };
    samples = [];
    events = [];
    return result;
  };

  let failure: unknown = null;
  const beforeStdinRead = () => {
    const ex = exports!;
    const previous = lineInFlight ? finishedLine() : null;
    lineInFlight = false;
    input = new Uint8Array(0);
    try {
      const job = nextLine(previous, host);
      if (!job) return;
      const line = utf8.encode(job.line.replace(/[\r\n]/g, " ") + "\n");
      if (line.length > MAX_LINE_BYTES) throw new Error(`SSML line of ${line.length} bytes exceeds ${MAX_LINE_BYTES}`);
      fs!.writeFile(SLOT_PATH, job.voiceFile);
      const bytes = restoreSnapshot(ex, snapshot!);
      opts.onReset?.(bytes);
      input = line;
      inputPos = 0;
      lineInFlight = true;
    } catch (e) {
      // Never throw into wasm: end main() with end-of-input and report after it returns.
      failure = e;
    }
  };

  // At start-up eSpeak probes many files that do not exist; each miss builds an Emscripten
  // ErrnoError that captures and demangles a stack trace nobody reads: about 0.3 s of every
  // instance's start. Stack traces are off until the first line is wanted.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  await ESpeakNg({
    // -m: SSML lines; -b 1: UTF-8; -w: synchronous output mode (the file is never opened because
    // our callback replaces the one that writes it); -v: any voice other than the slot, so every
    // line's <voice name="timbre"> loads the slot file afresh.
    arguments: opts.ipa ? ["-m", "-b", "1", "-v", "en-us", "-q", "--ipa"] : ["-m", "-b", "1", "-v", "en-us", "-w", "/tmp/unused.wav"],
    print: opts.ipa ?? (() => {}),
    printErr: (line) => {
      errors.push(line);
    },
    stdin: () => (inputPos < input.length ? input[inputPos++] : null),
    preRun: [
      (m) => {
        fs = m.FS;
      },
    ],
    onRuntimeInitialized: () => {
      // The slot must exist before main() scans the voices directory.
      fs!.writeFile(SLOT_PATH, `name ${SLOT_VOICE}\nlanguage en-us\n`);
    },
    instantiateWasm(imports, done) {
      // eSpeak seeds its noise generator (breath, flutter) with time(0) at start-up, so workers
      // started in different seconds spoke the same line differently. Its clock reads a constant.
      (imports.env as Record<string, () => number>).emscripten_date_now = () => ENGINE_CLOCK_MS;
      const wasi = imports.wasi_snapshot_preview1 as Record<string, (...a: number[]) => number>;
      const fdRead = wasi.fd_read;
      wasi.fd_read = (fd: number, iov: number, iovcnt: number, pnum: number) => {
        if (fd === 0) {
          const ex = exports!;
          const sig = `${ex.stackSave()}:${iov}:${iovcnt}:${pnum}`;
          if (!snapshot) {
            Error.stackTraceLimit = stackTraceLimit;
            snapshot = takeSnapshot(ex, build.breakAddress, opts);
            signature = sig;
          } else if (sig !== signature) {
            // Restoring memory is only sound at the very same call site with the same stack.
            throw new Error(`eSpeak read stdin from an unexpected state (${sig} vs ${signature})`);
          }
          beforeStdinRead();
        }
        return fdRead(fd, iov, iovcnt, pnum);
      };
      const instance = new WebAssembly.Instance(build.module, imports as WebAssembly.Imports);
      exports = instance.exports as unknown as EspeakExports;
      exports.__indirect_function_table.set(SYNTH_CALLBACK_SLOT, wasmCallback(onSynth));
      return done(instance, build.module);
    },
  }).finally(() => (Error.stackTraceLimit = stackTraceLimit));
  // eSpeak sets process.exitCode on some errors (an unknown voice); it must not leak into the host.
  if (process.exitCode === 1) process.exitCode = undefined;
  if (failure) throw failure;
  if (!snapshot) throw new Error(`eSpeak exited before reading input: ${errors.join(" | ")}`);
}
