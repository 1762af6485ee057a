import { afterAll, describe, expect, it } from "vitest";
import { assembleWat } from "../../../../scripts/lib/wasm-sources.js";
import { EspeakEngine } from "../../engine/espeak/engine.js";
import { DEFAULT_VOICE_SETTINGS } from "../../engine/port.js";
import { prng, signed } from "../../engine/prng.js";
import { premadeVoiceRecords } from "../../../platform/domain/premadeVoices.js";
import { resample } from "../resample.js";
import { redirectThroughImport } from "../wasm/patch.js";
import { loadRnnoise, RNNOISE_FRAME, RNNOISE_RATE, rnnoiseStats } from "./rnnoise.js";

const engine = new EspeakEngine({ size: 1 });
afterAll(() => engine.close());

/** Engine speech of two voices at 48 kHz with noise bursts between loud and faint. */
async function noisySpeech(): Promise<Float32Array> {
  const parts: Float32Array[] = [];
  for (const [i, text] of [
    [0, "The quick brown fox jumps over the lazy dog, then rests by the river."],
    [5, "Seven silver swans swam south; nobody noticed the noise behind them!"],
  ] as const) {
    const pcm: Int16Array[] = [];
    let sr = 22_050;
    const voice = premadeVoiceRecords()[i].profile;
    for await (const c of engine.synthesize({ text, voice, settings: DEFAULT_VOICE_SETTINGS, seed: 5, model: { id: "eleven_multilingual_v2", quality: "standard", supportsPhonemes: false } })) {
      pcm.push(c.pcm);
      sr = c.sampleRate;
    }
    const x = Float32Array.from(pcm.flatMap((p) => Array.from(p, (v) => v / 32768)));
    parts.push(resample(x, sr, RNNOISE_RATE));
  }
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  out.set(parts[0]);
  out.set(parts[1], parts[0].length);
  const rand = prng(11);
  for (let i = 0; i < out.length; i++) out[i] += signed(rand) * (Math.floor(i / 24_000) % 3 === 0 ? 0.3 : 0.02);
  return out;
}

describe("RNNoise with SIMD linear layers", () => {
  it("gives the original build's output and voice activity to the bit", async () => {
    const audio = await noisySpeech();
    const simd = (await loadRnnoise()).createDenoiseState();
    const plain = (await loadRnnoise({ simd: false })).createDenoiseState();
    const before = rnnoiseStats();
    expect(before.simd).toBe(true);
    const frames = Math.floor(audio.length / RNNOISE_FRAME);
    let differing = 0;
    let active = 0;
    for (let f = 0; f < frames; f++) {
      const a = audio.slice(f * RNNOISE_FRAME, (f + 1) * RNNOISE_FRAME).map((v) => v * 32768);
      const b = a.slice();
      const va = simd.processFrame(a);
      const vb = plain.processFrame(b);
      if (va !== vb || a.some((v, i) => !Object.is(v, b[i]))) differing++;
      if (vb > 0.5) active++;
    }
    simd.destroy();
    plain.destroy();
    expect(frames).toBeGreaterThan(400);
    expect(active).toBeGreaterThan(frames / 10); // speech was there, and found
    expect(active).toBeLessThan(frames);
    expect(differing).toBe(0);
    // Per frame, the model's 10 linear layers: 9 done in SIMD, the 1-output one left to the original.
    const after = rnnoiseStats();
    expect(after.simdLayers - before.simdLayers).toBe(9 * frames);
    expect(after.originalLayers - before.originalLayers).toBe(frames);
  });

  it("rewrites a function only through a hook with its parameters plus a tag, returning i32", async () => {
    const module = await assembleWat(
      `(module
        (import "m" "h" (func (param i32 i32) (result i32)))
        (global $g (export "g") (mut i32) (i32.const 0))
        (func (export "run") (param i32) (global.set $g (i32.add (global.get $g) (local.get 0))))
        (func (param i32) (result i32) (local.get 0)))`,
      "hook.wat",
    );
    const calls: number[][] = [];
    const patched = redirectThroughImport(module, 1, 0, 42);
    const ex = new WebAssembly.Instance(new WebAssembly.Module(patched), { m: { h: (a: number, tag: number) => (calls.push([a, tag]), a > 5 ? 1 : 0) } }).exports;
    const run = ex.run as (a: number) => void;
    run(7); // taken by the hook
    run(2); // left to the original body
    expect(calls).toEqual([[7, 42], [2, 42]]);
    expect((ex.g as WebAssembly.Global).value).toBe(2);
    expect(() => redirectThroughImport(module, 2, 0, 42)).toThrow(/signature/); // function 2 returns a value
    expect(() => redirectThroughImport(module, 0, 0, 42)).toThrow(/import/);
  });
});
