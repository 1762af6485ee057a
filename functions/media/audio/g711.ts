/**
 * ITU-T G.711 companding (µ-law and A-law), 8 bits per sample. Encoding goes through a
 * 64 Ki-entry table built once, so a sample costs one lookup.
 */
const MULAW_BIAS = 0x84;
const MULAW_CLIP = 32635;

function encodeMulawSample(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > MULAW_CLIP) s = MULAW_CLIP;
  s += MULAW_BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function decodeMulawSample(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = (((u & 0x0f) << 3) + MULAW_BIAS) << exponent;
  return u & 0x80 ? MULAW_BIAS - magnitude : magnitude - MULAW_BIAS;
}

function encodeAlawSample(sample: number): number {
  // A-law works on 13 significant bits.
  let v = sample >> 3;
  let mask: number;
  if (v >= 0) {
    mask = 0xd5;
  } else {
    mask = 0x55;
    v = -v - 1;
  }
  let segment = 0;
  while (segment < 8 && v > (0x20 << segment) - 1) segment++;
  if (segment >= 8) return 0x7f ^ mask;
  const mantissa = segment < 2 ? (v >> 1) & 0x0f : (v >> segment) & 0x0f;
  return ((segment << 4) | mantissa) ^ mask;
}

export function decodeAlawSample(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  if (segment === 0) t += 8;
  else t = (t + 0x108) << (segment - 1);
  return a & 0x80 ? t : -t;
}

let mulawTable: Uint8Array | null = null;
let alawTable: Uint8Array | null = null;

function table(encode: (s: number) => number): Uint8Array {
  const t = new Uint8Array(65536);
  for (let i = 0; i < 65536; i++) t[i] = encode(i - 32768);
  return t;
}

export function encodeMulaw(pcm: Int16Array): Uint8Array {
  mulawTable ??= table(encodeMulawSample);
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = mulawTable[pcm[i] + 32768];
  return out;
}

export function encodeAlaw(pcm: Int16Array): Uint8Array {
  alawTable ??= table(encodeAlawSample);
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = alawTable[pcm[i] + 32768];
  return out;
}

export function decodeMulaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = decodeMulawSample(bytes[i]);
  return out;
}

export function decodeAlaw(bytes: Uint8Array): Int16Array {
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = decodeAlawSample(bytes[i]);
  return out;
}
