/**
 * A minimal WebAssembly binary rewriter: enough to route one function of a module we depend on
 * through a host import, keeping the original body reachable. Used to give RNNoise's matrix
 * product a SIMD implementation without rebuilding RNNoise (no WebAssembly C toolchain here).
 *
 * redirectThroughImport(bytes, target, hook, tag) rewrites the module so that function `target`
 * first calls the imported function `hook` with its own parameters plus the i32 `tag`; when the
 * hook returns 0 the original body runs (moved, unchanged, to a new function appended at the end),
 * otherwise the call is done. Appending keeps every existing function index valid.
 */

import { concatBytes } from "../bytes.js";

const SECTION = { type: 1, import: 2, function: 3, code: 10 } as const;
const I32 = 0x7f;
const FUNC_TYPE = 0x60;

interface Section {
  id: number;
  head: number; // the id byte
  start: number; // payload start
  end: number; // payload end
}

class Reader {
  constructor(
    readonly b: Uint8Array,
    public p = 0,
  ) {}
  byte(): number {
    if (this.p >= this.b.length) throw new Error("unexpected end of module");
    return this.b[this.p++];
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const x = this.byte();
      result += (x & 0x7f) * 2 ** shift;
      if (!(x & 0x80)) return result;
      shift += 7;
      if (shift > 28) throw new Error("LEB128 too long");
    }
  }
  skip(n: number): void {
    this.p += n;
    if (this.p > this.b.length) throw new Error("unexpected end of module");
  }
}

export function encodeU32(n: number): number[] {
  const out: number[] = [];
  do {
    let x = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return out;
}

export function encodeI32(n: number): number[] {
  const out: number[] = [];
  n |= 0;
  for (;;) {
    const x = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && !(x & 0x40)) || (n === -1 && x & 0x40);
    out.push(done ? x : x | 0x80);
    if (done) return out;
  }
}

function sections(bytes: Uint8Array): Section[] {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Error("not a WebAssembly module");
  const r = new Reader(bytes, 8);
  const out: Section[] = [];
  while (r.p < bytes.length) {
    const head = r.p;
    const id = r.byte();
    const size = r.u32();
    out.push({ id, head, start: r.p, end: r.p + size });
    r.skip(size);
  }
  return out;
}

function only(all: Section[], id: number): Section {
  const found = all.filter((s) => s.id === id);
  if (found.length !== 1) throw new Error(`expected one section ${id}, found ${found.length}`);
  return found[0];
}

/** Parameter and result types of each function type (value-type bytes). */
function readTypes(bytes: Uint8Array, s: Section): { params: number[]; results: number[] }[] {
  const r = new Reader(bytes, s.start);
  const n = r.u32();
  const types = [];
  for (let i = 0; i < n; i++) {
    if (r.byte() !== FUNC_TYPE) throw new Error("unsupported type form");
    const params = Array.from({ length: r.u32() }, () => r.byte());
    const results = Array.from({ length: r.u32() }, () => r.byte());
    types.push({ params, results });
  }
  return types;
}

interface FunctionImport {
  module: string;
  name: string;
  type: number;
}

/** Imported functions, in index order. */
function readFunctionImports(bytes: Uint8Array, s: Section | undefined): FunctionImport[] {
  if (!s) return [];
  const r = new Reader(bytes, s.start);
  const n = r.u32();
  const funcs: FunctionImport[] = [];
  const text = new TextDecoder();
  const str = () => {
    const len = r.u32();
    const at = r.p;
    r.skip(len);
    return text.decode(bytes.subarray(at, at + len));
  };
  for (let i = 0; i < n; i++) {
    const module = str();
    const name = str();
    const kind = r.byte();
    if (kind === 0) funcs.push({ module, name, type: r.u32() });
    else if (kind === 1) {
      r.byte(); // reftype
      const flags = r.u32();
      r.u32();
      if (flags & 1) r.u32();
    } else if (kind === 2) {
      const flags = r.u32();
      r.u32();
      if (flags & 1) r.u32();
    } else if (kind === 3) {
      r.byte();
      r.byte();
    } else throw new Error(`unsupported import kind ${kind}`);
  }
  return funcs;
}

function section(id: number, payload: number[] | Uint8Array): Uint8Array {
  const size = encodeU32(payload.length);
  const out = new Uint8Array(1 + size.length + payload.length);
  out[0] = id;
  out.set(size, 1);
  out.set(payload, 1 + size.length);
  return out;
}

/** Always a fresh buffer (the module bytes are handed to WebAssembly). */
const concat = (parts: Uint8Array[]) => concatBytes(parts).slice() as Uint8Array<ArrayBuffer>;

/** The code (locals and instructions) of a function defined in the module. */
export function functionBody(bytes: Uint8Array, index: number): Uint8Array {
  const all = sections(bytes);
  const local = index - readFunctionImports(bytes, all.find((s) => s.id === SECTION.import)).length;
  const r = new Reader(bytes, only(all, SECTION.code).start);
  const count = r.u32();
  if (local < 0 || local >= count) throw new Error(`function ${index} is not defined in the module`);
  for (let i = 0; ; i++) {
    const size = r.u32();
    if (i === local) return bytes.subarray(r.p, r.p + size);
    r.skip(size);
  }
}

/** "module.name" of an imported function. */
export function importedFunctionName(bytes: Uint8Array, index: number): string | undefined {
  const f = readFunctionImports(bytes, sections(bytes).find((s) => s.id === SECTION.import))[index];
  return f && `${f.module}.${f.name}`;
}

export function redirectThroughImport(bytes: Uint8Array, target: number, hook: number, tag: number): Uint8Array<ArrayBuffer> {
  const all = sections(bytes);
  const types = readTypes(bytes, only(all, SECTION.type));
  const imported = readFunctionImports(bytes, all.find((s) => s.id === SECTION.import));
  if (hook >= imported.length) throw new Error(`function ${hook} is not an import`);
  const local = target - imported.length;
  if (local < 0) throw new Error(`function ${target} is an import`);

  const fsec = only(all, SECTION.function);
  const fr = new Reader(bytes, fsec.start);
  const declared = Array.from({ length: fr.u32() }, () => fr.u32());
  if (local >= declared.length) throw new Error(`no function ${target}`);
  const targetType = types[declared[local]];
  const hookType = types[imported[hook].type];
  const wants = [...targetType.params, I32].join();
  if (hookType.params.join() !== wants || hookType.results.join() !== String(I32) || targetType.results.length !== 0) {
    throw new Error("the hook's signature must be the target's parameters plus an i32 tag, returning i32; the target must return nothing");
  }

  const csec = only(all, SECTION.code);
  const cr = new Reader(bytes, csec.start);
  const count = cr.u32();
  if (count !== declared.length) throw new Error("function and code sections disagree");
  const bodies: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const size = cr.u32();
    bodies.push(bytes.subarray(cr.p, cr.p + size));
    cr.skip(size);
  }
  const moved = imported.length + count; // index of the appended copy of the original body

  const code: number[] = [0x00]; // no locals
  const args = targetType.params.map((_, i) => [0x20, ...encodeU32(i)]).flat(); // local.get i
  code.push(...args, 0x41, ...encodeI32(tag), 0x10, ...encodeU32(hook)); // i32.const tag; call hook
  code.push(0x45, 0x04, 0x40, ...args, 0x10, ...encodeU32(moved), 0x0b, 0x0b); // i32.eqz; if; call moved; end; end

  const newCode: Uint8Array[] = [Uint8Array.from(encodeU32(count + 1))];
  for (let i = 0; i < count; i++) {
    const body = i === local ? Uint8Array.from(code) : bodies[i];
    newCode.push(Uint8Array.from(encodeU32(body.length)), body);
  }
  newCode.push(Uint8Array.from(encodeU32(bodies[local].length)), bodies[local]);
  const newFunctions = [...encodeU32(count + 1), ...declared.flatMap((t) => encodeU32(t)), ...encodeU32(declared[local])];

  const parts: Uint8Array[] = [bytes.subarray(0, 8)];
  for (const s of all) {
    if (s.id === SECTION.function) parts.push(section(SECTION.function, newFunctions));
    else if (s.id === SECTION.code) parts.push(section(SECTION.code, concat(newCode)));
    else parts.push(bytes.subarray(s.head, s.end));
  }
  return concat(parts);
}
