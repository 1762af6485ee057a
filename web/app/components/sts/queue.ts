import { speechToSpeechCredits } from "../../../../functions/platform/domain/audioCredits.js";
import { STS_MAX_BYTES, stsMessages } from "../../../../functions/platform/contract/sts.js";

/**
 * The voice changer's file queue (speech-generation.md §3, §4): each item goes pending →
 * processing → converted or error; regenerate returns it to pending; exceeding the quota marks it
 * as an error with the quota message. Pure state changes, so the page and its tests share them.
 */
export type QueueStatus = "pending" | "processing" | "converted" | "error";

export interface ConvertedFile {
  /** The history item of the conversion (null with zero retention). */
  id: string | null;
  filename: string;
  /** Object URL of the converted audio; owned by the queue (revoked on remove). */
  url: string;
  cost: number;
}

export interface QueueItem {
  id: string;
  file: File;
  /** Decoded in the browser; null until known (or when the browser cannot decode it). */
  durationMilliseconds: number | null;
  status: QueueStatus;
  convertedFile: ConvertedFile | null;
  error: string | null;
}

/** At most this many files wait in the queue at once. */
export const MAX_QUEUE_ITEMS = 20;

export const queueMessages = {
  queueFull: `The queue holds up to ${MAX_QUEUE_ITEMS} files. Remove some before adding more.`,
  notAudio: (name: string) => `${name} is not an audio file.`,
  tooLarge: stsMessages.audioTooLarge(STS_MAX_BYTES / 1024 / 1024),
} as const;

let counter = 0;
export const newItemId = () => `q${Date.now().toString(36)}${(++counter).toString(36)}`;

export function newItem(file: File): QueueItem {
  const tooLarge = file.size > STS_MAX_BYTES;
  return { id: newItemId(), file, durationMilliseconds: null, status: tooLarge ? "error" : "pending", convertedFile: null, error: tooLarge ? queueMessages.tooLarge : null };
}

/** Files to add: audio only (by type or extension), up to the queue's room; what was refused and why. */
export function admit(current: readonly QueueItem[], files: readonly File[]): { items: QueueItem[]; refused: string[] } {
  const refused: string[] = [];
  const items: QueueItem[] = [];
  for (const f of files) {
    if (!/^audio\/|^video\/webm/.test(f.type) && !/\.(wav|mp3|m4a|ogg|oga|opus|flac|webm|aac|mp4)$/i.test(f.name)) {
      refused.push(queueMessages.notAudio(f.name));
      continue;
    }
    if (current.length + items.length >= MAX_QUEUE_ITEMS) {
      refused.push(queueMessages.queueFull);
      break;
    }
    items.push(newItem(f));
  }
  return { items, refused };
}

/** Credits of converting `durationMilliseconds` (what /v1 charges on the decoded duration). */
export function itemCost(durationMilliseconds: number | null, modelMultiplier: number, voiceRate = 1): number | null {
  return durationMilliseconds === null ? null : speechToSpeechCredits(durationMilliseconds / 1000, modelMultiplier, voiceRate);
}

export type QueueAction =
  | { type: "add"; items: QueueItem[] }
  | { type: "duration"; id: string; durationMilliseconds: number | null }
  | { type: "processing"; id: string }
  | { type: "converted"; id: string; file: ConvertedFile }
  | { type: "error"; id: string; error: string }
  | { type: "regenerate"; id: string }
  | { type: "remove"; id: string };

export function queueReducer(state: QueueItem[], action: QueueAction): QueueItem[] {
  const update = (id: string, f: (i: QueueItem) => QueueItem) => state.map((i) => (i.id === id ? f(i) : i));
  switch (action.type) {
    case "add":
      return [...state, ...action.items].slice(0, MAX_QUEUE_ITEMS);
    case "duration":
      return update(action.id, (i) => ({ ...i, durationMilliseconds: action.durationMilliseconds }));
    case "processing":
      return update(action.id, (i) => ({ ...i, status: "processing", error: null }));
    case "converted":
      return update(action.id, (i) => ({ ...i, status: "converted", convertedFile: action.file, error: null }));
    case "error":
      return update(action.id, (i) => ({ ...i, status: "error", error: action.error }));
    case "regenerate":
      // The previous result stays playable until the new one replaces it.
      return update(action.id, (i) => ({ ...i, status: "pending", error: null }));
    case "remove":
      return state.filter((i) => i.id !== action.id);
  }
}

/** The converted file's name: the upload's name with the voice and the output's extension. */
export function convertedName(upload: string, voiceName: string, extension = "mp3"): string {
  const base = upload.replace(/\.[^.]+$/, "") || "audio";
  const voice = voiceName.replace(/[^\p{L}\p{N}]+/gu, "_").replace(/^_|_$/g, "") || "voice";
  return `${base}_${voice}.${extension}`;
}
