/** Ogg pages (RFC 3533): segment tables, granule positions and the Ogg CRC-32. */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

/** CRC-32 with the Ogg parameters: polynomial 0x04C11DB7, no reflection, zero init and xor-out. */
export function oggCrc(bytes: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < bytes.length; i++) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ bytes[i]) & 0xff]) >>> 0;
  return crc;
}

const FLAG_BOS = 0x02;
const FLAG_EOS = 0x04;
const MAX_SEGMENTS = 255;

export class OggWriter {
  private sequence = 0;

  constructor(private readonly serial: number) {}

  /**
   * Writes whole packets into as many pages as the 255-segment limit needs. Only the page that
   * completes the last packet carries the granule position; the others carry -1 as RFC 3533 asks.
   */
  pages(packets: readonly Uint8Array[], granule: bigint, opts: { bos?: boolean; eos?: boolean } = {}): Uint8Array[] {
    const out: Uint8Array[] = [];
    let batch: Uint8Array[] = [];
    let segments = 0;
    const flush = (last: boolean) => {
      out.push(this.page(batch, last ? granule : -1n, (opts.bos && out.length === 0 ? FLAG_BOS : 0) | (last && opts.eos ? FLAG_EOS : 0)));
      batch = [];
      segments = 0;
    };
    for (const p of packets) {
      const need = Math.floor(p.length / 255) + 1;
      if (need > MAX_SEGMENTS) throw new RangeError("packet too large for one Ogg page");
      if (segments + need > MAX_SEGMENTS) flush(false);
      batch.push(p);
      segments += need;
    }
    if (batch.length || opts.eos || out.length === 0) flush(true);
    return out;
  }

  private page(packets: readonly Uint8Array[], granule: bigint, flags: number): Uint8Array {
    const lacing: number[] = [];
    let body = 0;
    for (const p of packets) {
      for (let n = p.length; ; n -= 255) {
        if (n >= 255) lacing.push(255);
        else {
          lacing.push(n);
          break;
        }
      }
      body += p.length;
    }
    const page = new Uint8Array(27 + lacing.length + body);
    const v = new DataView(page.buffer);
    page.set([0x4f, 0x67, 0x67, 0x53], 0); // "OggS"
    page[4] = 0; // version
    page[5] = flags;
    v.setBigInt64(6, granule, true);
    v.setUint32(14, this.serial >>> 0, true);
    v.setUint32(18, this.sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    let o = 27 + lacing.length;
    for (const p of packets) {
      page.set(p, o);
      o += p.length;
    }
    v.setUint32(22, oggCrc(page), true);
    return page;
  }
}
