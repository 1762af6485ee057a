/** Joins chunks of samples or bytes into one array of the same kind. */
function concat<T extends Uint8Array | Int16Array | Float32Array>(parts: readonly T[], make: (n: number) => T): T {
  if (parts.length === 1) return parts[0];
  let n = 0;
  for (const p of parts) n += p.length;
  const out = make(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export const concatBytes = (parts: readonly Uint8Array[]): Uint8Array => concat(parts, (n) => new Uint8Array(n));
export const concatInt16 = (parts: readonly Int16Array[]): Int16Array => concat(parts, (n) => new Int16Array(n));
export const concatFloat32 = (parts: readonly Float32Array[]): Float32Array => concat(parts, (n) => new Float32Array(n));
