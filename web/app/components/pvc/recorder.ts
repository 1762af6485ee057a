import { PVC, SCRIPT_LANGUAGES, SCRIPT_STYLES, pvcMessages } from "../../../../functions/platform/contract/pvc.js";
import { LIVE_READING } from "../../../../functions/platform/contract/pvcRecorder.js";

/**
 * The PVC recorder's rules, pure so they are tested without a browser (professional-voice-
 * clone.md §2 "Recorder dialog", "Recovery dialog", §4 "Recorder", §5, §9): scripts and their
 * passages, script files, the highlight, and the backup kept in localStorage under 'pvc'.
 */
export { LIVE_READING, PVC, SCRIPT_LANGUAGES, SCRIPT_STYLES, pvcMessages };

export type ScriptStyle = (typeof SCRIPT_STYLES)[number]["id"];
export type ScriptLanguage = (typeof SCRIPT_LANGUAGES)[number];

/** §3 Script: type, text, language. */
export interface Script {
  type: ScriptStyle | "uploaded";
  text: string;
  language: string;
}

/** The recorder's four tips (§2), in Timbre's words. */
export const RECORDER_TIPS = [
  "Use a pro-grade microphone, at the same distance from your mouth throughout.",
  "Avoid noisy places: no music, no traffic, no echoing rooms.",
  "Read a pre-selected script, so you keep a natural, steady pace.",
  "Save smaller recordings and take breaks between them: each recording becomes its own sample.",
] as const;

export const isScriptLanguage = (l: string): l is ScriptLanguage => (SCRIPT_LANGUAGES as readonly string[]).includes(l);

/** Where a bundled script is served (web/public/pvc-scripts). */
export const scriptUrl = (language: ScriptLanguage, style: ScriptStyle) => `/pvc-scripts/${language}/${style}.txt`;

/** Spaces as the live reading collapses them, so a transcript is a prefix of the passage. */
export const normaliseSpaces = (s: string) => s.replace(/\s+/g, " ").trim();

/** Passages shown and followed one at a time: paragraphs, split at sentence ends when longer than a passage may be. */
export function passagesOf(text: string, max: number = LIVE_READING.maxScriptChars): string[] {
  const out: string[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const p = normaliseSpaces(paragraph);
    if (!p) continue;
    if ([...p].length <= max) {
      out.push(p);
      continue;
    }
    // Sentences (Latin, CJK and other full stops), packed into passages up to the limit.
    const sentences = p.match(/[^.!?。！？]+[.!?。！？]*\s*/gu) ?? [p];
    let cur = "";
    for (const s of sentences) {
      for (let piece = s; piece.length; ) {
        const room = max - [...cur].length;
        if ([...piece].length <= room) {
          cur += piece;
          piece = "";
        } else if (cur) {
          out.push(cur.trim());
          cur = "";
        } else {
          // One sentence over the limit: cut it.
          const chars = [...piece];
          out.push(chars.slice(0, max).join("").trim());
          piece = chars.slice(max).join("");
        }
      }
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

/** How many characters of the passage to highlight: the transcript when it is the passage's beginning. */
export function highlightLength(passage: string, transcript: string): number {
  return transcript && passage.startsWith(transcript) ? transcript.length : 0;
}

/** A script file (§5): text only, at most 10 MB, not empty; its problems in the spec's words. */
export function checkScriptFile(file: { name: string; size: number; type: string }, bytes: Uint8Array | null): { text: string } | { error: string } {
  const textual = file.type === "" || file.type.startsWith("text/") || /\.(txt|text|md)$/i.test(file.name);
  if (!textual || file.size > PVC.scriptMaxBytes || !bytes) return { error: pvcMessages.fileNotLoaded(file.name) };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { error: pvcMessages.fileNotLoaded(file.name) };
  }
  // A binary file that happens to be valid UTF-8 still has control characters.
  if (/[\u0000-\u0008\u000e-\u001f]/.test(text)) return { error: pvcMessages.fileNotLoaded(file.name) };
  if (!text.replace(/^\uFEFF/, "").trim()) return { error: pvcMessages.scriptEmpty };
  return { text: text.replace(/^\uFEFF/, "") };
}

/** The first 100 characters, what language detection reads (§7). */
export const detectionSample = (text: string) => [...normaliseSpaces(text)].slice(0, 100).join("");

/** 16-bit little-endian PCM as base64, what `user_audio_chunk` carries. */
export function pcm16Base64(x: Float32Array): string {
  let bin = "";
  for (let i = 0; i < x.length; i++) {
    const v = Math.max(-32768, Math.min(32767, Math.round(x[i] * 32767)));
    const u = v & 0xffff;
    bin += String.fromCharCode(u & 0xff, u >> 8);
  }
  return btoa(bin);
}

/**
 * Microphone audio held back while the live reading's socket opens (the token and the handshake
 * take a moment after the countdown, and the first words are read in it): at most `maxSamples`,
 * the newest kept, all sent once the script is. The server accepts a burst of
 * LIVE_READING.burstSeconds ahead of real time, so the bound stays under it.
 */
export class HeldAudio {
  private parts: string[] = [];
  private lengths: number[] = [];
  private held = 0;
  private flushed = false;
  constructor(private readonly maxSamples: number) {}
  /** Sends `x` now if the socket is ready, else holds it. */
  push(x: Float32Array, send: ((b64: string) => void) | null): void {
    const b64 = pcm16Base64(x);
    if (send && this.flushed) return send(b64);
    this.parts.push(b64);
    this.lengths.push(x.length);
    this.held += x.length;
    while (this.held > this.maxSamples && this.parts.length > 1) {
      this.parts.shift();
      this.held -= this.lengths.shift()!;
    }
    if (send) this.flush(send);
  }
  /** The socket is ready: everything held goes, oldest first; later audio goes straight through. */
  flush(send: (b64: string) => void): void {
    for (const b of this.parts) send(b);
    this.parts = [];
    this.lengths = [];
    this.held = 0;
    this.flushed = true;
  }
  get heldSamples(): number {
    return this.held;
  }
}

/**
 * The backup of a recording in progress (§4: every 30 s, localStorage 'pvc'). The audio is what
 * the browser's recorder produced so far (Opus in WebM or AAC in MP4, about 6 KB a second at the
 * recorder's 48 kbit/s), base64, so a backup is a playable file of the recording's beginning.
 * It is bounded to BACKUP_MAX_CHARS (about six minutes); past that, or when the browser's storage
 * is full, the backup keeps the largest beginning that fits and says it is partial.
 */
export const BACKUP_KEY = "pvc";
export const BACKUP_MAX_CHARS = 3_000_000;
export const RECORDER_BITS_PER_SECOND = 48_000;

export interface RecordingBackup {
  version: 1;
  voiceId: string;
  mimeType: string;
  /** Seconds of audio the backup holds. */
  seconds: number;
  savedAt: number;
  /** True when the recording went on past what the backup could hold. */
  partial: boolean;
  audio: string;
}

export function readBackup(storage: Pick<Storage, "getItem">): RecordingBackup | null {
  try {
    const raw = storage.getItem(BACKUP_KEY);
    if (!raw) return null;
    const b = JSON.parse(raw) as Partial<RecordingBackup>;
    if (b.version !== 1 || typeof b.voiceId !== "string" || typeof b.audio !== "string" || !b.audio || typeof b.mimeType !== "string") return null;
    return { version: 1, voiceId: b.voiceId, mimeType: b.mimeType, seconds: Number(b.seconds) || 0, savedAt: Number(b.savedAt) || 0, partial: b.partial === true, audio: b.audio };
  } catch {
    return null;
  }
}

/**
 * Writes a backup. A base64 prefix of 4n characters is the base64 of the file's first 3n bytes,
 * so cutting keeps a playable beginning (decoders read a truncated WebM up to its last whole
 * frame). Returns what was kept: "full", "partial" or "none" (nothing fits).
 */
export function writeBackup(storage: Pick<Storage, "setItem" | "removeItem">, meta: Omit<RecordingBackup, "version" | "audio" | "partial">, audio: string): "full" | "partial" | "none" {
  const cut = (chars: number) => {
    const n = Math.min(audio.length, Math.floor(chars / 4) * 4);
    return { b64: audio.slice(0, n), seconds: audio.length ? (meta.seconds * n) / audio.length : 0 };
  };
  let { b64, seconds } = cut(BACKUP_MAX_CHARS);
  let partial = b64.length < audio.length;
  // Storage full: halve what is kept until it fits.
  while (b64.length >= 1024) {
    try {
      storage.setItem(BACKUP_KEY, JSON.stringify({ version: 1, ...meta, seconds, partial, audio: b64 } satisfies RecordingBackup));
      return partial ? "partial" : "full";
    } catch {
      ({ b64, seconds } = cut(b64.length / 2));
      partial = true;
    }
  }
  try {
    storage.removeItem(BACKUP_KEY);
  } catch {
    // nothing stored
  }
  return "none";
}

export function clearBackup(storage: Pick<Storage, "removeItem">): void {
  try {
    storage.removeItem(BACKUP_KEY);
  } catch {
    // Storage unavailable: nothing was kept.
  }
}

/** The backup's audio as a file for the upload queue. */
export function backupFile(b: RecordingBackup): File {
  const bin = atob(b.audio);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const ext = b.mimeType.includes("mp4") ? "mp4" : "webm";
  return new File([bytes], `recovered recording ${new Date(b.savedAt).toISOString().slice(0, 16).replace("T", " ")}.${ext}`, { type: b.mimeType });
}

/** The name of a recording's file: 'recording 2026-11-23 21:40.webm'. */
export const recordingName = (at: number, mimeType: string) => `recording ${new Date(at).toISOString().slice(0, 19).replace("T", " ")}.${mimeType.includes("mp4") ? "mp4" : "webm"}`;

/** Texts of the recorder that the spec leaves to us (one place). */
export const recorderText = {
  start: "Start recording",
  restart: "Restart",
  stop: "Stop",
  askingPermission: "Waiting for microphone access…",
  countdown: (n: number) => `Recording starts in ${n}`,
  stopping: "Saving the recording…",
  added: "The recording was added to your samples.",
  microphone: "Microphone",
  script: "Script",
  scriptText: "Script to read",
  uploadScript: "Upload a script",
  noScript: "No script",
  passage: (i: number, n: number) => `Passage ${i} of ${n}`,
  previousPassage: "Previous passage",
  nextPassage: "Next passage",
  highlightOff: "Live highlighting is not available right now; keep reading, the recording is not affected.",
  mismatch: (script: string, samples: string) => `This script seems to be in ${script}, but your samples are in ${samples}. Use it anyway?`,
  useAnyway: "Use anyway",
  cancel: "Cancel",
  recover: "Recover",
  discard: "Discard",
  recoverBody: (seconds: number, partial: boolean) =>
    `A recording of about ${Math.round(seconds)} s was not saved when this page closed.` + (partial ? " Only its beginning was kept: the browser's storage was full." : "") + " Recover it as a sample, or discard it.",
  backupPartial: "Your browser's storage is full: the backup holds only the beginning of this recording. Stop and save it soon.",
} as const;
