/** Identifies an audio container from its first bytes (for validating uploads). */
export type SniffedAudioType = "wav" | "mp3" | "ogg" | "flac" | "webm" | "mp4";

function ascii(b: Uint8Array, off: number, s: string): boolean {
  if (b.length < off + s.length) return false;
  for (let i = 0; i < s.length; i++) if (b[off + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** An MPEG audio frame header: 11 sync bits, a valid version, layer, bitrate and sample rate. */
function mpegFrameAt(b: Uint8Array, off: number): boolean {
  if (b.length < off + 4 || b[off] !== 0xff || (b[off + 1] & 0xe0) !== 0xe0) return false;
  const version = (b[off + 1] >> 3) & 3;
  const layer = (b[off + 1] >> 1) & 3;
  const bitrate = b[off + 2] >> 4;
  const rate = (b[off + 2] >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

export function sniffAudioType(bytes: Uint8Array): SniffedAudioType | null {
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return "wav";
  if (ascii(bytes, 0, "OggS")) return "ogg";
  if (ascii(bytes, 0, "fLaC")) return "flac";
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    // EBML: browsers record webm; plain Matroska audio is accepted as the same family.
    return "webm";
  }
  if (ascii(bytes, 4, "ftyp")) return "mp4";
  if (ascii(bytes, 0, "ID3")) return "mp3";
  if (mpegFrameAt(bytes, 0)) return "mp3";
  return null;
}
