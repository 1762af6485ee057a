import jpeg from "jpeg-js";
import { PNG } from "pngjs";

/**
 * The profile photo's pixel work, a pure function run on the CPU workers (functions/platform/offload):
 * decode a PNG or JPEG whose size was checked from its header, crop the centre square, shrink it
 * by area averaging to at most PHOTO_SIZE pixels a side, flatten transparency onto white, and
 * encode a JPEG. Linear in the number of source pixels.
 */
export const PHOTO_SIZE = 256;
/**
 * The largest side the header check lets through. It follows from the decoder's memory budget:
 * jpeg-js keeps every 8x8 block of every component (4 bytes a pixel each), a line buffer and the
 * output per component and the RGBA image, about 28 bytes a pixel for a 4-component JPEG. At 4096
 * that is 470 MB, inside the 512 MB budget below, so a photo the check admits always decodes
 * (6000 px a side would need up to 1 GB, and was refused as unreadable once decoded).
 */
export const MAX_PHOTO_SIDE = 4096;
const DECODE_BUDGET_MB = 512;

export interface PhotoTask {
  bytes: Uint8Array;
  type: "png" | "jpeg";
}

export function resizePhoto(t: PhotoTask): Uint8Array {
  const buf = Buffer.from(t.bytes.buffer, t.bytes.byteOffset, t.bytes.byteLength);
  const img =
    t.type === "png"
      ? (() => {
          const p = PNG.sync.read(buf);
          return { width: p.width, height: p.height, data: new Uint8Array(p.data.buffer, p.data.byteOffset, p.data.byteLength) };
        })()
      : jpeg.decode(buf, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: DECODE_BUDGET_MB });
  const side = Math.min(img.width, img.height);
  const x0 = Math.floor((img.width - side) / 2);
  const y0 = Math.floor((img.height - side) / 2);
  const out = Math.min(PHOTO_SIZE, side);
  const acc = new Float64Array(out * out * 4);
  const count = new Float64Array(out * out);
  for (let y = 0; y < side; y++) {
    const oy = Math.min(out - 1, Math.floor((y * out) / side));
    let src = ((y0 + y) * img.width + x0) * 4;
    for (let x = 0; x < side; x++, src += 4) {
      const o = oy * out + Math.min(out - 1, Math.floor((x * out) / side));
      const a = img.data[src + 3] / 255;
      // Transparent parts become white.
      acc[o * 4] += img.data[src] * a + 255 * (1 - a);
      acc[o * 4 + 1] += img.data[src + 1] * a + 255 * (1 - a);
      acc[o * 4 + 2] += img.data[src + 2] * a + 255 * (1 - a);
      count[o]++;
    }
  }
  const data = new Uint8Array(out * out * 4);
  for (let i = 0; i < out * out; i++) {
    const n = count[i] || 1;
    data[i * 4] = Math.round(acc[i * 4] / n);
    data[i * 4 + 1] = Math.round(acc[i * 4 + 1] / n);
    data[i * 4 + 2] = Math.round(acc[i * 4 + 2] / n);
    data[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ data, width: out, height: out }, 85).data);
}

/** The image's type and size from its first bytes, without decoding it; undefined when it is neither a PNG nor a JPEG. */
export function photoHeader(b: Uint8Array): { type: "png" | "jpeg"; width: number; height: number } | undefined {
  if (b.length >= 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b[12] === 0x49 && b[13] === 0x48 && b[14] === 0x44 && b[15] === 0x52) {
    const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
    return { type: "png", width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    // Walk the markers to the first start-of-frame.
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1];
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
        i += marker === 0xff ? 1 : 2;
        continue;
      }
      const len = (b[i + 2] << 8) | b[i + 3];
      if (len < 2) return undefined;
      const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (sof) return { type: "jpeg", height: (b[i + 5] << 8) | b[i + 6], width: (b[i + 7] << 8) | b[i + 8] };
      i += 2 + len;
    }
  }
  return undefined;
}
