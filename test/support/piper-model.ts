/**
 * A tiny ONNX model with Piper's exact signature, written as protobuf bytes here (no Piper voice
 * can be downloaded in tests): inputs `input` int64 [1,N], `input_lengths` int64 [1], `scales`
 * float32 [3] (noise_scale, length_scale, noise_w), optionally `sid` int64 [1]; output `output`
 * float32 [1,1,1,T]. The graph turns the ids into a deterministic tone:
 *
 *   T = trunc(N * SAMPLES_PER_ID * length_scale)
 *   id(t) = input[floor(t * N / T)]          (Resize, nearest: each id holds for T/N samples)
 *   out(t) = 0.3 * sin(t * f(t)),  f(t) = 0.05 + 0.0005 * id(t) + 0.01 * noise_w + 0.05 * noise_scale + 0.02 * sid
 *
 * (single speaker: sid = 0), so length follows N and length_scale, and the pitch the ids, the
 * noise scales and the speaker (the engine normalises each sentence's level, as Piper does, so
 * only what the pitch and length say survive to the output).
 * Also the .onnx.json Piper writes beside a model.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SAMPLES_PER_ID = 256;

// ---- protobuf writer -------------------------------------------------------------------------
type Field = Uint8Array;

function varint(n: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

const key = (no: number, wire: number) => varint(no * 8 + wire);
const concat = (parts: Array<Uint8Array | number[]>): Uint8Array => {
  const arrays = parts.map((p) => (p instanceof Uint8Array ? p : Uint8Array.from(p)));
  const out = new Uint8Array(arrays.reduce((s, a) => s + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
};
const vint = (no: number, n: number | bigint): Field => concat([key(no, 0), varint(n)]);
const bytes = (no: number, b: Uint8Array): Field => concat([key(no, 2), varint(b.length), b]);
const str = (no: number, s: string): Field => bytes(no, new TextEncoder().encode(s));
const msg = (no: number, fields: Field[]): Field => bytes(no, concat(fields));
const f32 = (no: number, x: number): Field => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, x, true);
  return concat([key(no, 5), b]);
};

const FLOAT = 1;
const INT64 = 7;

/** TensorProto (dims 1, data_type 2, name 8, raw_data 9). */
function tensor(name: string, type: number, dims: number[], values: number[]): Field[] {
  const raw = type === FLOAT ? new Uint8Array(Float32Array.from(values).buffer) : new Uint8Array(BigInt64Array.from(values.map(BigInt)).buffer);
  return [...dims.map((d) => vint(1, d)), vint(2, type), str(8, name), bytes(9, raw)];
}

/** ValueInfoProto with a tensor type; a string dim is symbolic. */
function valueInfo(no: number, name: string, type: number, dims: Array<number | string>): Field {
  const dim = dims.map((d) => msg(1, [typeof d === "number" ? vint(1, d) : str(2, d)]));
  return msg(no, [str(1, name), msg(2, [msg(1, [vint(1, type), msg(2, dim)])])]);
}

type Attr = { name: string; i?: number; ints?: number[]; s?: string; f?: number };
/** AttributeProto (name 1, f 2, i 3, s 4, ints 8, type 20). */
function attribute(a: Attr): Field {
  const fields = [str(1, a.name)];
  if (a.f !== undefined) fields.push(f32(2, a.f), vint(20, 1));
  else if (a.i !== undefined) fields.push(vint(3, a.i), vint(20, 2));
  else if (a.s !== undefined) fields.push(str(4, a.s), vint(20, 3));
  else if (a.ints) fields.push(...a.ints.map((x) => vint(8, x)), vint(20, 7));
  return msg(5, fields);
}

/** NodeProto (input 1, output 2, name 3, op_type 4, attribute 5). */
function node(op: string, inputs: string[], output: string, attrs: Attr[] = []): Field {
  return msg(1, [...inputs.map((i) => str(1, i)), str(2, output), str(3, `${op}_${output}`), str(4, op), ...attrs.map(attribute)]);
}

export interface TinyModelOptions {
  /** Adds the `sid` input (a multi-speaker model). */
  speakers?: boolean;
  /** Names the first input otherwise (a model with the wrong signature). */
  inputName?: string;
  /**
   * Adds a second output as a voice patched for alignments has (untyped, like Piper's patch):
   * each id's "duration" in frames, here id + 1, so times follow the ids and not the audio.
   */
  durations?: boolean;
}

/** The model's bytes (ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8). */
export function tinyPiperModel(opts: TinyModelOptions = {}): Uint8Array {
  const input = opts.inputName ?? "input";
  const inits: Field[] = [
    msg(5, tensor("c_one", INT64, [], [1])),
    msg(5, tensor("c_zero", INT64, [], [0])),
    msg(5, tensor("c_two", INT64, [], [2])),
    msg(5, tensor("c_axes0", INT64, [1], [0])),
    msg(5, tensor("c_111", INT64, [3], [1, 1, 1])),
    msg(5, tensor("c_shape4", INT64, [4], [1, 1, 1, -1])),
    msg(5, tensor("c_per_id", FLOAT, [], [SAMPLES_PER_ID])),
    msg(5, tensor("c_f0", FLOAT, [], [0])),
    msg(5, tensor("c_f1", FLOAT, [], [1])),
    msg(5, tensor("c_base", FLOAT, [], [0.05])),
    msg(5, tensor("c_per_idf", FLOAT, [], [0.0005])),
    msg(5, tensor("c_noise_w", FLOAT, [], [0.01])),
    msg(5, tensor("c_amp", FLOAT, [], [0.3])),
    msg(5, tensor("c_noise", FLOAT, [], [0.05])),
    ...(opts.speakers ? [msg(5, tensor("c_sid", FLOAT, [], [0.02]))] : []),
  ];
  const nodes: Field[] = [
    node("Cast", [input], "ids_f", [{ name: "to", i: FLOAT }]),
    node("Shape", [input], "shape_in"),
    node("Gather", ["shape_in", "c_one"], "n", [{ name: "axis", i: 0 }]),
    node("Cast", ["n"], "n_f", [{ name: "to", i: FLOAT }]),
    node("Gather", ["scales", "c_zero"], "noise_scale", [{ name: "axis", i: 0 }]),
    node("Gather", ["scales", "c_one"], "length_scale", [{ name: "axis", i: 0 }]),
    node("Gather", ["scales", "c_two"], "noise_w", [{ name: "axis", i: 0 }]),
    node("Mul", ["n_f", "c_per_id"], "t0"),
    node("Mul", ["t0", "length_scale"], "t_f"),
    node("Cast", ["t_f"], "t_i", [{ name: "to", i: INT64 }]),
    node("Cast", ["t_i"], "t_fi", [{ name: "to", i: FLOAT }]),
    node("Unsqueeze", ["t_i", "c_axes0"], "t_1"),
    node("Concat", ["c_111", "t_1"], "sizes", [{ name: "axis", i: 0 }]),
    node("Reshape", ["ids_f", "c_shape4"], "ids4"),
    node("Resize", ["ids4", "", "", "sizes"], "ids_t", [{ name: "mode", s: "nearest" }, { name: "coordinate_transformation_mode", s: "asymmetric" }, { name: "nearest_mode", s: "floor" }]),
    node("Range", ["c_f0", "t_fi", "c_f1"], "ramp"),
    node("Mul", ["ids_t", "c_per_idf"], "f_id"),
    node("Add", ["f_id", "c_base"], "f_a"),
    node("Mul", ["noise_w", "c_noise_w"], "f_w"),
    node("Add", ["f_a", "f_w"], "f_b"),
    node("Mul", ["noise_scale", "c_noise"], "f_n"),
    node("Add", ["f_b", "f_n"], "f_c"),
    // input_lengths is read (times zero) so no runtime drops it as unused.
    node("Cast", ["input_lengths"], "len_f", [{ name: "to", i: FLOAT }]),
    node("Mul", ["len_f", "c_f0"], "len_zero"),
  ];
  if (opts.speakers) {
    nodes.push(node("Cast", ["sid"], "sid_f", [{ name: "to", i: FLOAT }]), node("Mul", ["sid_f", "c_sid"], "f_s"), node("Add", ["f_c", "f_s"], "freq"));
  } else nodes.push(node("Add", ["f_c", "c_f0"], "freq"));
  if (opts.durations) nodes.push(node("Add", ["ids_f", "c_f1"], "w_ceil"));
  nodes.push(node("Mul", ["freq", "ramp"], "phase"), node("Sin", ["phase"], "wave"), node("Add", ["c_amp", "len_zero"], "amp"), node("Mul", ["wave", "amp"], "output"));
  const inputs = [
    valueInfo(11, input, INT64, [1, "phonemes"]),
    valueInfo(11, "input_lengths", INT64, [1]),
    valueInfo(11, "scales", FLOAT, [3]),
    ...(opts.speakers ? [valueInfo(11, "sid", INT64, [1])] : []),
  ];
  const graph = msg(7, [...nodes, str(2, "tiny_piper"), ...inits, ...inputs, valueInfo(12, "output", FLOAT, [1, 1, 1, "time"]), ...(opts.durations ? [msg(12, [str(1, "w_ceil")])] : [])]);
  return concat([vint(1, 8), str(2, "timbre-tests"), graph, msg(8, [str(1, ""), vint(2, 13)])]);
}

/** The phoneme id map of the test voices: Piper's specials plus every IPA symbol English uses. */
export function tinyPhonemeIdMap(): Record<string, number[]> {
  const symbols = ["_", "^", "$", " ", "!", "'", "(", ")", ",", "-", ".", ":", ";", "?", ..."abcdefhijklmnopqrstuvwxyzæçðøŋœɐɑɒɔɕəɚɛɜɝɞɟɡɣɤɥɨɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢˈˌːˑ̩θᵻ"];
  return Object.fromEntries(symbols.map((s, i) => [s, [i]]));
}

export interface TinyVoiceOptions extends TinyModelOptions {
  sampleRate?: number;
  espeakVoice?: string;
  /** Speaker names (a multi-speaker model). */
  speakerNames?: string[];
  language?: string;
}

/** The .onnx.json Piper writes beside a model. */
export function tinyPiperConfig(opts: TinyVoiceOptions = {}): Record<string, unknown> {
  const speakers = opts.speakerNames ?? [];
  return {
    audio: { sample_rate: opts.sampleRate ?? 22050, quality: "medium" },
    espeak: { voice: opts.espeakVoice ?? "en-us" },
    language: { code: opts.language ?? "en_US", family: "en", region: "US", name_english: "English" },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: "espeak",
    phoneme_map: {},
    phoneme_id_map: tinyPhonemeIdMap(),
    num_symbols: 256,
    num_speakers: Math.max(1, speakers.length),
    speaker_id_map: Object.fromEntries(speakers.map((s, i) => [s, i])),
    dataset: "tiny",
  };
}

/** Writes NAME.onnx and NAME.onnx.json into `dir`; returns the model's path. */
export function writeTinyVoice(dir: string, name: string, opts: TinyVoiceOptions = {}): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.onnx`);
  writeFileSync(path, tinyPiperModel({ ...opts, speakers: opts.speakers ?? (opts.speakerNames?.length ?? 0) > 1 }));
  writeFileSync(`${path}.json`, JSON.stringify(tinyPiperConfig(opts), null, 2));
  return path;
}
