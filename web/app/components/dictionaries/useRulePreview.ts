import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { dictionaryMessages, type RuleRequest } from "../../../../functions/platform/contract/dictionaries.js";

/**
 * Rule audio preview (app-shell.md §4): one audio element, owned by the detail view, plays one
 * rule at a time. Each rule's status is paused, loading or playing; a failed preview marks the
 * rule's error until the rule, voice or model changes. The hook owns the object URL and the
 * request, and releases both when the view goes away.
 */
export type PreviewStatus = "paused" | "loading" | "playing";

export interface RulePreview {
  status(key: string): PreviewStatus;
  error(key: string, signature: string): string | null;
  voiceError: string | null;
  /** The last preview's audio (the player draws its waveform). */
  blob: Blob | null;
  toggle(key: string, signature: string, rule: RuleRequest, voiceId: string, modelId: string | null): void;
  clearVoiceError(): void;
}

export function useRulePreview(dictionaryId: string, csrf: string, audio: RefObject<HTMLAudioElement>): RulePreview {
  const [current, setCurrent] = useState<{ key: string; status: PreviewStatus } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [voiceError, setVoiceError] = useState<string | null>(null);
  const [blob, setBlob] = useState<Blob | null>(null);
  const url = useRef<string | null>(null);
  const request = useRef<AbortController | null>(null);

  const release = useCallback(() => {
    request.current?.abort();
    request.current = null;
    const el = audio.current;
    if (el) {
      el.pause();
      el.removeAttribute("src");
    }
    if (url.current) URL.revokeObjectURL(url.current);
    url.current = null;
  }, [audio]);

  useEffect(() => {
    const el = audio.current;
    if (!el) return;
    const playing = () => setCurrent((c) => (c ? { ...c, status: "playing" } : c));
    // A pause we caused while starting another preview must not overwrite its "loading".
    const stopped = () => setCurrent((c) => (c && c.status === "playing" ? { ...c, status: "paused" } : c));
    el.addEventListener("playing", playing);
    el.addEventListener("ended", stopped);
    el.addEventListener("pause", stopped);
    return () => {
      el.removeEventListener("playing", playing);
      el.removeEventListener("ended", stopped);
      el.removeEventListener("pause", stopped);
      release();
    };
  }, [audio, release]);

  const toggle = useCallback(
    (key: string, signature: string, rule: RuleRequest, voiceId: string, modelId: string | null) => {
      if (current?.key === key && current.status !== "paused") {
        release();
        setCurrent({ key, status: "paused" });
        return;
      }
      if (!voiceId) {
        setVoiceError(dictionaryMessages.selectVoice);
        return;
      }
      setVoiceError(null);
      release();
      const controller = new AbortController();
      request.current = controller;
      setCurrent({ key, status: "loading" });
      const form = new FormData();
      form.set("csrf", csrf);
      form.set("rule", JSON.stringify(rule));
      form.set("voice_id", voiceId);
      if (modelId) form.set("model_id", modelId);
      const errorKey = `${key}\n${signature}`;
      (async () => {
        try {
          const res = await fetch(`/app/dictionaries/${encodeURIComponent(dictionaryId)}/preview`, { method: "POST", body: form, signal: controller.signal });
          if (!res.ok) throw new Error("preview failed");
          const audioBlob = await res.blob();
          if (controller.signal.aborted) return;
          url.current = URL.createObjectURL(audioBlob);
          setBlob(audioBlob);
          const el = audio.current;
          if (!el) return;
          el.src = url.current;
          await el.play();
        } catch (e) {
          if ((e as Error).name === "AbortError" || controller.signal.aborted) return;
          setErrors((all) => ({ ...all, [errorKey]: dictionaryMessages.previewFailed }));
          setCurrent({ key, status: "paused" });
        }
      })();
    },
    [audio, csrf, current, dictionaryId, release],
  );

  return {
    status: (key) => (current?.key === key ? current.status : "paused"),
    error: (key, signature) => errors[`${key}\n${signature}`] ?? null,
    voiceError,
    blob,
    toggle,
    clearVoiceError: () => setVoiceError(null),
  };
}
