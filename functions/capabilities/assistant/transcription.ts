/**
 * Speech in through an OpenAI-compatible transcription server (whisper.cpp server, speaches, or a
 * hosted one; ASSISTANT_TRANSCRIPTION_URL): POST /v1/audio/transcriptions, multipart file + model.
 */
import type { Config } from "../../platform/config.js";
import { assistantMessages } from "../../platform/contract/assistant.js";
import { ApiError } from "../../platform/http/errors.js";

export type TranscriptionConfig = NonNullable<Config["assistant"]["transcription"]>;

const TIMEOUT_MS = 20_000;

export async function transcribe(cfg: TranscriptionConfig, audio: Uint8Array, mime: string): Promise<string> {
  const form = new FormData();
  const ext = mime === "audio/wav" ? "wav" : mime === "audio/ogg" ? "ogg" : "webm";
  form.set("file", new Blob([new Uint8Array(audio)], { type: mime }), `speech.${ext}`);
  form.set("model", cfg.model);
  form.set("response_format", "json");
  let res: Response;
  try {
    res = await fetch(`${cfg.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {},
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(502, "transcription_failed", assistantMessages.transcriptionFailed);
  }
  const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
  if (!res.ok || typeof body?.text !== "string") throw new ApiError(502, "transcription_failed", assistantMessages.transcriptionFailed);
  return body.text.trim();
}
