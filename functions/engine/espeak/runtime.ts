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
 * Instantiation (~100 ms) is paid once per worker; a line then costs the restore (~1 ms) plus
 * synthesis (a few ms per sentence).
 */
import { concatInt16 } from "../../audio/bytes.js";
import ESpeakNg, { type EspeakModule } from "espeak-ng";
import {
  ESPEAK_DATA,
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
}

/** fgets in the CLI reads at most 999 bytes; longer lines would be cut into two syntheses. */
export const MAX_LINE_BYTES = 990;
export const SLOT_VOICE = "timbre";
const SLOT_PATH = `${ESPEAK_DATA}voices/${SLOT_VOICE}`;

interface EspeakExports {
  memory: WebAssembly.Memory;
  __indirect_function_table: WebAssembly.Table;
  __emscripten_embedded_file_data: WebAssembly.Global;
  stackSave(): number;
}

const utf8 = new TextEncoder();

export async function runEspeak(module: WebAssembly.Module, nextLine: NextLine): Promise<void> {
  let fs: EspeakModule["FS"] | null = null;
  let exports: EspeakExports | null = null;
  let input = new Uint8Array(0);
  let inputPos = 0;
  let samples: Int16Array[] = [];
  let events: EspeakEvent[] = [];
  let lineInFlight = false;
  let snapshot: { low: Uint8Array; highFrom: number; high: Uint8Array } | null = null;
  let signature = "";
  const errors: string[] = [];

  const host: EspeakHost = {
    readDataFile: (path) => {
      if (!fs) throw new Error("eSpeak filesystem not ready");
      return fs.readFile(ESPEAK_DATA + path, { encoding: "utf8" });
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

  const takeSnapshot = (ex: EspeakExports) => {
    const files = embeddedFilesSpan(ex.memory, ex.__emscripten_embedded_file_data.value as number);
    const mem = new Uint8Array(ex.memory.buffer);
    snapshot = { low: mem.slice(0, files.start), highFrom: files.end, high: mem.slice(files.end) };
  };

  const restoreSnapshot = (ex: EspeakExports) => {
    const mem = new Uint8Array(ex.memory.buffer);
    mem.set(snapshot!.low, 0);
    mem.set(snapshot!.high, snapshot!.highFrom);
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
      const bytes = utf8.encode(job.line.replace(/[\r\n]/g, " ") + "\n");
      if (bytes.length > MAX_LINE_BYTES) throw new Error(`SSML line of ${bytes.length} bytes exceeds ${MAX_LINE_BYTES}`);
      fs!.writeFile(SLOT_PATH, job.voiceFile);
      restoreSnapshot(ex);
      input = bytes;
      inputPos = 0;
      lineInFlight = true;
    } catch (e) {
      // Never throw into wasm: end main() with end-of-input and report after it returns.
      failure = e;
    }
  };

  await ESpeakNg({
    // -m: SSML lines; -b 1: UTF-8; -w: synchronous output mode (the file is never opened because
    // our callback replaces the one that writes it); -v: any voice other than the slot, so every
    // line's <voice name="timbre"> loads the slot file afresh.
    arguments: ["-m", "-b", "1", "-v", "en-us", "-w", "/tmp/unused.wav"],
    print: () => {},
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
      const wasi = imports.wasi_snapshot_preview1 as Record<string, (...a: number[]) => number>;
      const fdRead = wasi.fd_read;
      wasi.fd_read = (fd: number, iov: number, iovcnt: number, pnum: number) => {
        if (fd === 0) {
          const ex = exports!;
          const sig = `${ex.stackSave()}:${iov}:${iovcnt}:${pnum}`;
          if (!snapshot) {
            takeSnapshot(ex);
            signature = sig;
          } else if (sig !== signature) {
            // Restoring memory is only sound at the very same call site with the same stack.
            throw new Error(`eSpeak read stdin from an unexpected state (${sig} vs ${signature})`);
          }
          beforeStdinRead();
        }
        return fdRead(fd, iov, iovcnt, pnum);
      };
      const instance = new WebAssembly.Instance(module, imports as WebAssembly.Imports);
      exports = instance.exports as unknown as EspeakExports;
      exports.__indirect_function_table.set(SYNTH_CALLBACK_SLOT, wasmCallback(onSynth));
      return done(instance, module);
    },
  });
  // eSpeak sets process.exitCode on some errors (an unknown voice); it must not leak into the host.
  if (process.exitCode === 1) process.exitCode = undefined;
  if (failure) throw failure;
  if (!snapshot) throw new Error(`eSpeak exited before reading input: ${errors.join(" | ")}`);
}
