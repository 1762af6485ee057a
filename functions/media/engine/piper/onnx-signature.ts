/**
 * Reads an ONNX model's graph inputs and outputs (names, element types, ranks) straight from its
 * protobuf bytes, without running it: the start-up check that a file is a Piper voice (ONNX's
 * onnx.proto: ModelProto.graph = 7; GraphProto.initializer = 5, input = 11, output = 12;
 * ValueInfoProto.name = 1, type = 2; TypeProto.tensor_type = 1; Tensor.elem_type = 1, shape = 2;
 * TensorShapeProto.dim = 1). Large fields (the weights) are skipped by their length.
 */
export interface OnnxValue {
  name: string;
  /** TensorProto.DataType: 1 float, 7 int64. */
  elemType: number;
  /** Number of dimensions, or null when the model gives no shape. */
  rank: number | null;
}

export interface OnnxSignature {
  inputs: OnnxValue[];
  outputs: OnnxValue[];
}

export const ONNX_FLOAT = 1;
export const ONNX_INT64 = 7;

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    from = 0,
    readonly end = buf.length,
  ) {
    this.pos = from;
  }
  get done(): boolean {
    return this.pos >= this.end;
  }
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error("truncated varint");
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * mul;
      if ((b & 0x80) === 0) return result;
      mul *= 128;
    }
    throw new Error("varint too long");
  }
  /** Next field: its number, wire type and, for length-delimited ones, a reader over its bytes. */
  field(): { no: number; wire: number; sub?: Reader; value?: number } {
    const key = this.varint();
    const no = Math.floor(key / 8);
    const wire = key & 7;
    if (no === 0) throw new Error("field number 0");
    switch (wire) {
      case 0:
        return { no, wire, value: this.varint() };
      case 1:
        this.skip(8);
        return { no, wire };
      case 5:
        this.skip(4);
        return { no, wire };
      case 2: {
        const len = this.varint();
        const from = this.pos;
        this.skip(len);
        return { no, wire, sub: new Reader(this.buf, from, from + len) };
      }
      default:
        throw new Error(`wire type ${wire}`);
    }
  }
  skip(n: number): void {
    if (this.pos + n > this.end) throw new Error("field runs past the end");
    this.pos += n;
  }
  string(): string {
    return new TextDecoder("utf-8", { fatal: true }).decode(this.buf.subarray(this.pos, this.end));
  }
}

function valueInfo(r: Reader): OnnxValue {
  let name = "";
  let elemType = 0;
  let rank: number | null = null;
  while (!r.done) {
    const f = r.field();
    if (f.no === 1 && f.sub) name = f.sub.string();
    else if (f.no === 2 && f.sub) {
      const type = f.sub;
      while (!type.done) {
        const t = type.field();
        if (t.no !== 1 || !t.sub) continue; // tensor_type
        while (!t.sub.done) {
          const e = t.sub.field();
          if (e.no === 1 && e.value !== undefined) elemType = e.value;
          else if (e.no === 2 && e.sub) {
            rank = 0;
            while (!e.sub.done) if (e.sub.field().no === 1) rank++;
          }
        }
      }
    }
  }
  return { name, elemType, rank };
}

function tensorName(r: Reader): string {
  while (!r.done) {
    const f = r.field();
    if (f.no === 8 && f.sub) return f.sub.string();
  }
  return "";
}

/** Throws a short reason when the bytes are no ONNX model. */
export function readOnnxSignature(bytes: Uint8Array): OnnxSignature {
  const model = new Reader(bytes);
  let graph: Reader | null = null;
  let ir = 0;
  while (!model.done) {
    const f = model.field();
    if (f.no === 1 && f.value !== undefined) ir = f.value;
    if (f.no === 7 && f.sub) graph = f.sub;
  }
  if (!graph || ir === 0) throw new Error("not an ONNX model (no graph or IR version)");
  const inputs: OnnxValue[] = [];
  const outputs: OnnxValue[] = [];
  const initializers = new Set<string>();
  while (!graph.done) {
    const f = graph.field();
    if (!f.sub) continue;
    if (f.no === 5) initializers.add(tensorName(f.sub));
    else if (f.no === 11) inputs.push(valueInfo(f.sub));
    else if (f.no === 12) outputs.push(valueInfo(f.sub));
  }
  // Older exporters list the weights among the inputs too.
  return { inputs: inputs.filter((i) => !initializers.has(i.name)), outputs };
}

/**
 * Piper's signature: `input` int64 [1,N], `input_lengths` int64 [1], `scales` float [3], `sid`
 * int64 [1] for multi-speaker models; one float output [1,1,1,T], and optionally a second one with
 * each id's duration. Returns the problems found.
 */
export function piperSignatureProblems(sig: OnnxSignature, multiSpeaker: boolean): string[] {
  const problems: string[] = [];
  const want: Array<[string, number, number]> = [
    ["input", ONNX_INT64, 2],
    ["input_lengths", ONNX_INT64, 1],
    ["scales", ONNX_FLOAT, 1],
  ];
  if (multiSpeaker) want.push(["sid", ONNX_INT64, 1]);
  const type = (t: number) => (t === ONNX_FLOAT ? "float32" : t === ONNX_INT64 ? "int64" : `type ${t}`);
  for (const [name, elem, rank] of want) {
    const got = sig.inputs.find((i) => i.name === name);
    if (!got) problems.push(`no input "${name}"`);
    else if (got.elemType !== elem) problems.push(`input "${name}" is ${type(got.elemType)}, not ${type(elem)}`);
    else if (got.rank !== null && got.rank !== rank) problems.push(`input "${name}" has ${got.rank} dimensions, not ${rank}`);
  }
  const extra = sig.inputs.filter((i) => !want.some(([n]) => n === i.name));
  for (const e of extra) problems.push(e.name === "sid" ? `input "sid" but the json lists one speaker` : `unexpected input "${e.name}"`);
  // A second output is the per-id durations a voice patched for alignments gives (Piper's
  // patch_voice_with_alignment marks its w_ceil tensor as an output, without a type).
  if (sig.outputs.length < 1 || sig.outputs.length > 2) problems.push(`${sig.outputs.length} outputs, not 1 (audio) or 2 (audio, durations)`);
  else if (sig.outputs[0].elemType !== ONNX_FLOAT) problems.push(`output "${sig.outputs[0].name}" is ${type(sig.outputs[0].elemType)}, not float32`);
  return problems;
}
