/**
 * A FLAC encoder for 16-bit mono PCM (the format's specification, RFC 9639): the fLaC marker, a
 * STREAMINFO block, then frames of 4,096 samples, each one subframe with the best of the fixed
 * predictors of order 0 to 4 and its residual Rice-coded in one partition. Lossless: a decoder
 * returns the samples exactly. No MD5 of the audio (all zeros: "not computed", as the format
 * allows). Pure and synchronous: run it off the request loop (the CPU task table).
 */
export const FLAC_BLOCK_SIZE = 4096;

class BitWriter {
  private buf = new Uint8Array(1 << 16);
  private len = 0;
  private acc = 0;
  private nbits = 0;

  /** Writes the low `bits` (0..24) bits of `value`. */
  private put(value: number, bits: number): void {
    this.acc = (this.acc << bits) | (value & ((1 << bits) - 1));
    this.nbits += bits;
    while (this.nbits >= 8) {
      this.nbits -= 8;
      this.byte((this.acc >>> this.nbits) & 0xff);
    }
    this.acc &= (1 << this.nbits) - 1;
  }

  write(value: number, bits: number): void {
    // Up to 48 bits, in pieces of at most 24 (values above 2^32 only for the 36-bit sample count).
    while (bits > 24) {
      bits -= 24;
      this.put(Math.floor(value / 2 ** bits) & 0xffffff, 24);
      value = value % 2 ** bits;
    }
    if (bits > 0) this.put(value, bits);
  }

  zeros(n: number): void {
    while (n >= 24) {
      this.put(0, 24);
      n -= 24;
    }
    if (n > 0) this.put(0, n);
  }

  byte(b: number): void {
    if (this.len === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.len++] = b;
  }

  /** Pads with zero bits to a byte boundary. */
  align(): void {
    if (this.nbits > 0) this.put(0, 8 - this.nbits);
  }

  get length(): number {
    return this.len;
  }

  slice(from = 0, to = this.len): Uint8Array {
    return this.buf.subarray(from, to);
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const CRC8 = new Uint8Array(256);
const CRC16 = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  let c = i;
  for (let b = 0; b < 8; b++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  CRC8[i] = c;
  let d = i << 8;
  for (let b = 0; b < 8; b++) d = d & 0x8000 ? ((d << 1) ^ 0x8005) & 0xffff : (d << 1) & 0xffff;
  CRC16[i] = d;
}
const crc8 = (bytes: Uint8Array) => bytes.reduce((c, b) => CRC8[c ^ b], 0);
const crc16 = (bytes: Uint8Array) => bytes.reduce((c, b) => ((c << 8) & 0xffff) ^ CRC16[(c >> 8) ^ b], 0);

/** The frame number in FLAC's UTF-8-like coding. */
function writeCodedNumber(w: BitWriter, n: number): void {
  if (n < 0x80) return w.write(n, 8);
  let bytes = 2;
  while (bytes < 7 && n >= 2 ** (5 * bytes + 1)) bytes++;
  const lead = (0xff00 >> bytes) & 0xff;
  w.write(lead | Math.floor(n / 2 ** (6 * (bytes - 1))), 8);
  for (let i = bytes - 2; i >= 0; i--) w.write(0x80 | (Math.floor(n / 2 ** (6 * i)) & 0x3f), 8);
}

/** Residuals of the fixed predictor of `order` for samples[from..to). */
function residuals(s: Int16Array, from: number, to: number, order: number, out: Int32Array): number {
  let n = 0;
  for (let i = from + order; i < to; i++) {
    let r: number;
    switch (order) {
      case 0: r = s[i]; break;
      case 1: r = s[i] - s[i - 1]; break;
      case 2: r = s[i] - 2 * s[i - 1] + s[i - 2]; break;
      case 3: r = s[i] - 3 * s[i - 1] + 3 * s[i - 2] - s[i - 3]; break;
      default: r = s[i] - 4 * s[i - 1] + 6 * s[i - 2] - 4 * s[i - 3] + s[i - 4];
    }
    out[n++] = r;
  }
  return n;
}

const fold = (r: number) => (r >= 0 ? 2 * r : -2 * r - 1);

/** The Rice parameter (0..14) that codes these residuals in the fewest bits, and that count. */
function bestRice(res: Int32Array, n: number): { k: number; bits: number } {
  let best = { k: 0, bits: Infinity };
  for (let k = 0; k <= 14; k++) {
    let bits = n * (k + 1);
    for (let i = 0; i < n && bits < best.bits; i++) bits += Math.floor(fold(res[i]) / 2 ** k);
    if (bits < best.bits) best = { k, bits };
  }
  return best;
}

function writeFrame(w: BitWriter, s: Int16Array, from: number, to: number, index: number, scratch: Int32Array): void {
  const start = w.length;
  const size = to - from;
  // Header: sync, fixed block size; block size as 16 bits at the end (7); rate from STREAMINFO (0);
  // mono (0); 16-bit samples (4); the frame number; the block size - 1; CRC-8.
  w.write(0b11111111111110, 14);
  w.write(0, 1);
  w.write(0, 1);
  w.write(7, 4);
  w.write(0, 4);
  w.write(0, 4);
  w.write(4, 3);
  w.write(0, 1);
  writeCodedNumber(w, index);
  w.write(size - 1, 16);
  w.byte(crc8(w.slice(start)));

  let best = { order: 0, k: 0, bits: Infinity };
  for (let order = 0; order <= Math.min(4, size - 1); order++) {
    const n = residuals(s, from, to, order, scratch);
    const r = bestRice(scratch, n);
    const total = r.bits + order * 16;
    if (total < best.bits) best = { order, k: r.k, bits: total };
  }
  // Subframe: padding bit, FIXED of the order, no wasted bits; warm-up samples; the residual with
  // 4-bit Rice parameters, partition order 0.
  w.write(0, 1);
  w.write(0b001000 | best.order, 6);
  w.write(0, 1);
  for (let i = 0; i < best.order; i++) w.write(s[from + i] & 0xffff, 16);
  w.write(0, 2);
  w.write(0, 4);
  w.write(best.k, 4);
  const n = residuals(s, from, to, best.order, scratch);
  for (let i = 0; i < n; i++) {
    const u = fold(scratch[i]);
    w.zeros(Math.floor(u / 2 ** best.k));
    w.write(1, 1);
    if (best.k) w.write(u & ((1 << best.k) - 1), best.k);
  }
  w.align();
  const crc = crc16(w.slice(start));
  w.write(crc, 16);
}

/** A complete FLAC file of 16-bit mono `pcm` at `sampleRate` Hz. */
export function encodeFlac(pcm: Int16Array, sampleRate: number): Uint8Array {
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 655_350) throw new Error(`FLAC cannot carry a rate of ${sampleRate} Hz`);
  const w = new BitWriter();
  for (const c of "fLaC") w.byte(c.charCodeAt(0));
  // STREAMINFO, the last metadata block: 34 bytes.
  w.write(1, 1);
  w.write(0, 7);
  w.write(34, 24);
  w.write(FLAC_BLOCK_SIZE, 16);
  w.write(FLAC_BLOCK_SIZE, 16);
  w.write(0, 24); // smallest frame: unknown
  w.write(0, 24); // largest frame: unknown
  w.write(sampleRate, 20);
  w.write(0, 3); // one channel
  w.write(15, 5); // 16 bits per sample
  w.write(pcm.length, 36);
  for (let i = 0; i < 16; i++) w.byte(0); // MD5: not computed
  const scratch = new Int32Array(FLAC_BLOCK_SIZE);
  for (let from = 0, index = 0; from < pcm.length; from += FLAC_BLOCK_SIZE, index++) {
    writeFrame(w, pcm, from, Math.min(pcm.length, from + FLAC_BLOCK_SIZE), index, scratch);
  }
  return w.bytes();
}

/** FLAC from a 16-bit mono WAV as Timbre's encoder writes it (44-byte header, then the samples). */
export function flacFromWav(wav: Uint8Array): Uint8Array {
  const v = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
  if (wav.byteLength < 44 || tag(0) !== "RIFF" || tag(8) !== "WAVE" || tag(36) !== "data" || v.getUint16(22, true) !== 1 || v.getUint16(34, true) !== 16) {
    throw new Error("flacFromWav expects a 16-bit mono WAV with a 44-byte header");
  }
  const count = Math.floor(Math.min(v.getUint32(40, true), wav.byteLength - 44) / 2);
  const pcm = new Int16Array(count);
  for (let i = 0; i < count; i++) pcm[i] = v.getInt16(44 + 2 * i, true);
  return encodeFlac(pcm, v.getUint32(24, true));
}
