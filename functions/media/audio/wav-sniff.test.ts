import { describe, expect, it } from "vitest";
import { decodeWav, encodeWav, WavFormatError, wavPcm16 } from "./wav.js";
import { sniffAudioType } from "./sniff.js";
import { encodeAll } from "./encoder.js";
import { toneInt16 } from "./testing.js";

describe("WAV", () => {
  it("decodes what it encodes, sample for sample", () => {
    const pcm = toneInt16(440, 16000, 0.25);
    const back = decodeWav(encodeWav(pcm, 16000));
    expect(back.sampleRate).toBe(16000);
    expect(back.channels).toBe(1);
    expect(Array.from(back.pcm, (v) => Math.round(v * 32768))).toEqual(Array.from(pcm));
  });

  it("writes and reads 16-bit mono with the bytes and floats of a sample-by-sample DataView loop, at any offset", () => {
    const backing = new Int16Array(3 + 4001);
    for (let i = 0; i < backing.length; i++) backing[i] = ((i * 7919) % 65536) - 32768;
    const pcm = backing.subarray(3); // a view at an odd sample offset
    const wav = encodeWav(pcm, 16000);
    const v = new DataView(wav.buffer);
    for (let i = 0; i < pcm.length; i++) expect(v.getInt16(44 + 2 * i, true)).toBe(pcm[i]);
    expect(wav.length).toBe(44 + 2 * pcm.length);
    // Decoding a WAV that starts at an odd byte of a larger buffer (not 2-byte aligned).
    const shifted = new Uint8Array(wav.length + 1);
    shifted.set(wav, 1);
    const back = decodeWav(shifted.subarray(1));
    const floats = Float32Array.from(pcm, (x) => x / 32768);
    expect(Buffer.from(back.pcm.buffer).equals(Buffer.from(floats.buffer))).toBe(true);
    // A data chunk with an odd trailing byte: whole frames only.
    const odd = new Uint8Array(wav.length + 1);
    odd.set(wav);
    new DataView(odd.buffer).setUint32(40, pcm.length * 2 + 1, true);
    expect(decodeWav(odd).pcm.length).toBe(pcm.length);
  });

  it("reads a mono 16-bit WAV's samples as stored, at any offset, and nothing else", () => {
    const pcm = toneInt16(300, 16000, 0.1);
    const wav = encodeWav(pcm, 16000);
    const shifted = new Uint8Array(wav.length + 1);
    shifted.set(wav, 1);
    const w = wavPcm16(shifted.subarray(1))!;
    expect(w.sampleRate).toBe(16000);
    expect(Array.from(w.pcm16)).toEqual(Array.from(pcm));
    expect(Array.from(decodeWav(wav).pcm)).toEqual(Array.from(w.pcm16, (x) => x / 32768));
    const stereo = encodeWav(pcm, 16000);
    new DataView(stereo.buffer).setUint16(22, 2, true);
    expect(wavPcm16(stereo)).toBeUndefined();
    expect(() => wavPcm16(new Uint8Array(20))).toThrow(WavFormatError);
  });

  it("mixes stereo 24-bit to mono", () => {
    const frames = 4;
    const bytes = new Uint8Array(44 + frames * 6);
    const v = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode("RIFF"), 0);
    v.setUint32(4, bytes.length - 8, true);
    bytes.set(new TextEncoder().encode("WAVEfmt "), 8);
    v.setUint32(16, 16, true);
    v.setUint16(20, 1, true);
    v.setUint16(22, 2, true);
    v.setUint32(24, 8000, true);
    v.setUint32(28, 8000 * 6, true);
    v.setUint16(32, 6, true);
    v.setUint16(34, 24, true);
    bytes.set(new TextEncoder().encode("data"), 36);
    v.setUint32(40, frames * 6, true);
    for (let f = 0; f < frames; f++) {
      const left = 0x400000; // +0.5
      const right = 0; // 0
      bytes.set([left & 0xff, (left >> 8) & 0xff, (left >> 16) & 0xff, right, right, right], 44 + f * 6);
    }
    const d = decodeWav(bytes);
    expect(d.channels).toBe(2);
    expect(Array.from(d.pcm)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it("rejects non-WAV bytes with a WavFormatError", () => {
    expect(() => decodeWav(new TextEncoder().encode("OggS not a wav at all"))).toThrow(WavFormatError);
  });
});

describe("sniffAudioType", () => {
  const pcm = toneInt16(300, 22050, 0.2);
  it.each([
    ["wav", encodeAll("wav_22050", pcm, 22050)],
    ["mp3", encodeAll("mp3_44100_128", pcm, 22050)],
    ["ogg", encodeAll("opus_48000_64", pcm, 22050)],
    ["flac", new TextEncoder().encode("fLaC\0\0\0\x22")],
    ["webm", new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81])],
    ["mp4", new Uint8Array([0, 0, 0, 0x20, ...new TextEncoder().encode("ftypM4A ")])],
    ["mp3", new Uint8Array([...new TextEncoder().encode("ID3"), 4, 0, 0, 0, 0, 0, 0])],
  ] as const)("recognises %s", (kind, bytes) => {
    expect(sniffAudioType(bytes)).toBe(kind);
  });

  it("returns null for text and for random bytes with a false MPEG sync", () => {
    expect(sniffAudioType(new TextEncoder().encode("hello world"))).toBeNull();
    expect(sniffAudioType(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBeNull();
  });
});
