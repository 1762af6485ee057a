import { useEffect, useState } from "react";
import { z } from "zod";
import { v1Json } from "../tts/client.js";
import { PVC } from "./wizard.js";

const SignedUrlWire = z.object({ signed_url: z.string() });
const WaveformWire = z.object({ visual_waveform: z.array(z.number()) });

/**
 * A sample's playable URL and waveform for the wizard's player bar and trim editor. The signed
 * URL is kept for an hour (§9 "Signed url cached 1 hour"; the server signs it for two), the peaks
 * for the page's life: a sample's audio never changes under the same id.
 */
const urls = new Map<string, { url: string; until: number }>();
const peaks = new Map<string, Float32Array>();

const key = (voiceId: string, sampleId: string) => `${voiceId}/${sampleId}`;

async function signedUrl(voiceId: string, sampleId: string): Promise<string> {
  const k = key(voiceId, sampleId);
  const cached = urls.get(k);
  if (cached && cached.until > Date.now()) return cached.url;
  const { signed_url } = await v1Json(`/v1/voices/${encodeURIComponent(voiceId)}/samples/${encodeURIComponent(sampleId)}/signed-url`, SignedUrlWire);
  urls.set(k, { url: signed_url, until: Date.now() + PVC.signedUrlCacheSeconds * 1000 });
  return signed_url;
}

async function waveform(voiceId: string, sampleId: string): Promise<Float32Array> {
  const k = key(voiceId, sampleId);
  const cached = peaks.get(k);
  if (cached) return cached;
  const { visual_waveform } = await v1Json(`/v1/voices/pvc/${encodeURIComponent(voiceId)}/samples/${encodeURIComponent(sampleId)}/waveform`, WaveformWire);
  const top = visual_waveform.reduce((m, p) => Math.max(m, Math.abs(p)), 0) || 1;
  const shaped = Float32Array.from(visual_waveform, (p) => Math.abs(p) / top);
  peaks.set(k, shaped);
  return shaped;
}

export interface SampleMedia {
  url: string | null;
  peaks: Float32Array | null;
  failed: boolean;
}

/** The URL and peaks of one sample (null until loaded; a newer sample wins over a slower answer). */
export function useSampleMedia(voiceId: string, sampleId: string | null): SampleMedia {
  const [media, setMedia] = useState<SampleMedia>({ url: null, peaks: null, failed: false });
  useEffect(() => {
    setMedia({ url: null, peaks: null, failed: false });
    if (!sampleId) return;
    let current = true;
    signedUrl(voiceId, sampleId)
      .then((url) => current && setMedia((m) => ({ ...m, url })))
      .catch(() => current && setMedia((m) => ({ ...m, failed: true })));
    // The waveform is a nicety: the audio plays without it.
    waveform(voiceId, sampleId)
      .then((p) => current && setMedia((m) => ({ ...m, peaks: p })))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [voiceId, sampleId]);
  return media;
}
