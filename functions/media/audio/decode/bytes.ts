/** Small readers shared by the container parsers. Every read is bounds-checked by its caller. */
export function ascii(b: Uint8Array, off: number, len: number): string {
  let s = "";
  for (let i = 0; i < len && off + i < b.length; i++) s += String.fromCharCode(b[off + i]);
  return s;
}

export function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

export function startsWith(b: Uint8Array, off: number, text: string): boolean {
  if (off < 0 || off + text.length > b.length) return false;
  for (let i = 0; i < text.length; i++) if (b[off + i] !== text.charCodeAt(i)) return false;
  return true;
}
