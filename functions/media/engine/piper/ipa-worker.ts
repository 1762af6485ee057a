/**
 * eSpeak NG as a phonemizer for the Piper engine: one long-lived instance (espeak/runtime.ts in
 * its IPA mode) that turns clauses into IPA, as Piper's own phonemizer does with eSpeak NG. It
 * runs beside each Piper worker (which owns it): eSpeak's main loop blocks this thread between
 * lines, so the Piper worker, which awaits onnxruntime, cannot host it.
 *
 * Jobs come on a MessageChannel read synchronously (`receiveMessageOnPort`) after the owner bumps
 * a shared counter; each clause is one SSML line, and the IPA eSpeak prints for it (a line per
 * clause it finds) is joined with spaces.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import { runEspeak, type EspeakHost, type LineJob, type LineResult } from "../espeak/runtime.js";
import type { EspeakBuild } from "../espeak/wasm.js";
import { linesOf } from "./phonemes.js";

export interface IpaWorkerInit {
  build: EspeakBuild;
  port: MessagePort;
  wake: SharedArrayBuffer;
}

export interface IpaRequest {
  id: number;
  /** eSpeak NG voice as Piper's json names it ("en-us", "de", "fr-fr", ...). */
  voice: string;
  clauses: string[];
}

export type IpaReply = { kind: "ipa"; id: number; ipa: string[] } | { kind: "error"; id: number; message: string } | { kind: "ready" };

const init = workerData as IpaWorkerInit;
const wake = new Int32Array(init.wake);
let seen = 0;

function nextRequest(): IpaRequest | null {
  for (;;) {
    const m = receiveMessageOnPort(init.port);
    if (m) return m.message as IpaRequest | null;
    Atomics.wait(wake, 0, seen, 1000);
    seen = Atomics.load(wake, 0);
  }
}


/** eSpeak's language files by lower-case name ("en-us" -> "gmw/en-US"), read once. */
let langIndex: Map<string, string> | null = null;
const voiceFiles = new Map<string, string>();

function indexLanguages(host: EspeakHost, dir = "lang", into = new Map<string, string>()): Map<string, string> {
  for (const name of host.listDataDir(dir)) {
    const path = `${dir}/${name}`;
    let isFile = true;
    try {
      host.readDataFile(path);
    } catch {
      isFile = false;
    }
    if (isFile) into.set(name.toLowerCase(), path);
    else indexLanguages(host, path, into);
  }
  return into;
}

/**
 * The slot voice: eSpeak's own language file of that name (its rules, dictionary and phoneme
 * variants, as `espeak-ng -v en-us` would load); a name eSpeak has no file for is passed as a bare
 * `language` line, which eSpeak resolves to its nearest language.
 */
function voiceFile(voice: string, host: EspeakHost): string {
  const id = voice.toLowerCase().replace(/[^a-z0-9-]/g, "");
  let file = voiceFiles.get(id);
  if (file === undefined) {
    langIndex ??= indexLanguages(host);
    const path = langIndex.get(id);
    const lines = path ? host.readDataFile(path).split("\n").filter((l) => !/^\s*(name|maintainer|status)\b/.test(l)) : [`language ${id}`];
    file = ["name timbre", ...lines].filter((l) => l.trim()).join("\n") + "\n";
    voiceFiles.set(id, file);
  }
  return file;
}

/** The request's lines, each with the clause it belongs to. */
let current: { req: IpaRequest; lines: Array<{ clause: number; text: string }>; at: number; out: string[][] } | null = null;
let printed: string[] = [];

function lineFor(c: NonNullable<typeof current>, host: EspeakHost): LineJob {
  return { line: `<speak><voice name="timbre">${c.lines[c.at].text}</voice></speak>`, voiceFile: voiceFile(c.req.voice, host) };
}

function nextLine(_previous: LineResult | null, host: EspeakHost): LineJob | null {
  if (current) {
    current.out[current.lines[current.at].clause].push(printed.join(" "));
    printed = [];
    current.at++;
    if (current.at < current.lines.length) return lineFor(current, host);
    const ipa = current.out.map((parts) => parts.join(" ").replace(/\s+/g, " ").trim());
    parentPort!.postMessage({ kind: "ipa", id: current.req.id, ipa } satisfies IpaReply);
    current = null;
  }
  for (;;) {
    const req = nextRequest();
    if (!req) return null;
    if (req.clauses.length === 0) {
      parentPort!.postMessage({ kind: "ipa", id: req.id, ipa: [] } satisfies IpaReply);
      continue;
    }
    printed = [];
    const lines = req.clauses.flatMap((c, clause) => linesOf(c).map((text) => ({ clause, text })));
    if (lines.length === 0) {
      parentPort!.postMessage({ kind: "ipa", id: req.id, ipa: req.clauses.map(() => "") } satisfies IpaReply);
      continue;
    }
    current = { req, lines, at: 0, out: req.clauses.map(() => []) };
    return lineFor(current, host);
  }
}

parentPort!.postMessage({ kind: "ready" } satisfies IpaReply);
await runEspeak(init.build, nextLine, { ipa: (line) => printed.push(line) });
init.port.close();
