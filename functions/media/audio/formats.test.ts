import { describe, expect, it } from "vitest";
import { OUTPUT_FORMATS, STREAMING_OUTPUT_FORMATS, UnsupportedOutputFormatError, parseOutputFormat } from "./formats.js";

describe("parseOutputFormat", () => {
  it("knows the 28 formats of the contract, 21 of them streamable (no wav)", () => {
    expect(OUTPUT_FORMATS).toHaveLength(28);
    expect(STREAMING_OUTPUT_FORMATS).toHaveLength(21);
    expect(STREAMING_OUTPUT_FORMATS.some((f) => f.startsWith("wav"))).toBe(false);
  });

  it("splits codec, rate and bitrate", () => {
    expect(parseOutputFormat("mp3_22050_32")).toEqual({ id: "mp3_22050_32", codec: "mp3", sampleRate: 22050, bitrateKbps: 32, contentType: "audio/mpeg" });
    expect(parseOutputFormat("opus_48000_192")).toMatchObject({ codec: "opus", sampleRate: 48000, bitrateKbps: 192, contentType: "audio/ogg" });
    expect(parseOutputFormat("pcm_16000")).toMatchObject({ codec: "pcm", sampleRate: 16000, bitrateKbps: null });
    expect(parseOutputFormat("ulaw_8000")).toMatchObject({ codec: "ulaw", sampleRate: 8000, contentType: "audio/basic" });
    expect(parseOutputFormat("wav_44100")).toMatchObject({ codec: "wav", sampleRate: 44100, contentType: "audio/wav" });
  });

  it.each(["mp3_44100_320", "pcm_11025", "wav", "opus_24000_32", "", "MP3_44100_128"])("rejects %j", (s) => {
    expect(() => parseOutputFormat(s)).toThrow(UnsupportedOutputFormatError);
  });
});
