// Writes the attention graphs that the benchmark runs in onnxruntime-web (bench/models/*.onnx, committed):
//
//   attention-d64.onnx          output = Softmax((q · kᵀ) · (1/√64), axis −1) · v
//   attention-causal-d64.onnx   output = Softmax((q · kᵀ) · (1/√64) + mask, axis −1) · v,   mask: (T, T), 0 or −inf
//
// q, k, v: (T, 64) float32 with T symbolic, so one graph serves every length; the mask is an input (built once per T by
// the benchmark, as a model with an additive mask receives it). The graph is the lesson's four steps as ONNX operators
// (Transpose, MatMul, Mul by a scalar, [Add], Softmax, MatMul): what an exporter emits for this attention.
//
//   node bench/make-onnx-graphs.mjs
//
// There is no onnx package for Python or JS here, so the few protobuf messages needed are encoded by hand below, from
// the field numbers of onnx.proto (onnx/onnx, IR version 8, opset 17).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WIDTH = 64;
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'models');

// --- Protobuf wire format: varints, length-delimited fields, fixed32 ---------------------------------------------
const WIRE_VARINT = 0, WIRE_LENGTH = 2;
function varint(n) {
  const bytes = [];
  let v = BigInt.asUintN(64, BigInt(n));  // int64 fields: a negative number is its 64-bit two's complement
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    bytes.push(b);
  } while (v);
  return bytes;
}
const key = (field, wire) => varint((field << 3) | wire);
/** A message: the concatenation of its fields, each made by one of the helpers below. */
const message = (...fields) => fields.flat();
const int = (field, n) => [...key(field, WIRE_VARINT), ...varint(n)];
const bytes = (field, b) => [...key(field, WIRE_LENGTH), ...varint(b.length), ...b];
const string = (field, s) => bytes(field, [...new TextEncoder().encode(s)]);
const sub = (field, m) => bytes(field, m);

// --- onnx.proto messages (field numbers from onnx.proto) ---------------------------------------------------------
const FLOAT = 1;  // TensorProto.DataType.FLOAT
const ATTRIBUTE_INT = 2, ATTRIBUTE_INTS = 7;  // AttributeProto.AttributeType

// ValueInfoProto { name = 1; type = 2 } / TypeProto { tensor_type = 1 } / TypeProto.Tensor { elem_type = 1; shape = 2 }
// TensorShapeProto { dim = 1 } / Dimension { dim_value = 1; dim_param = 2 }
function floatInput(name, dims) {
  const dim = (d) => sub(1, typeof d === 'string' ? string(2, d) : int(1, d));
  return message(string(1, name), sub(2, sub(1, message(int(1, FLOAT), sub(2, message(...dims.map(dim)))))));
}
// AttributeProto { name = 1; i = 3; ints = 8; type = 20 }
const intAttribute = (name, i) => message(string(1, name), int(3, i), int(20, ATTRIBUTE_INT));
const intsAttribute = (name, ints) => message(string(1, name), ...ints.map((i) => int(8, i)), int(20, ATTRIBUTE_INTS));
// NodeProto { input = 1; output = 2; name = 3; op_type = 4; attribute = 5 }
function node(opType, inputs, outputs, attributes = []) {
  return message(...inputs.map((s) => string(1, s)), ...outputs.map((s) => string(2, s)), string(3, outputs[0]),
    string(4, opType), ...attributes.map((a) => sub(5, a)));
}
// TensorProto { dims = 1; data_type = 2; name = 8; raw_data = 9 }: a float32 scalar (no dims)
function scalar(name, value) {
  return message(int(2, FLOAT), string(8, name), bytes(9, [...new Uint8Array(Float32Array.of(value).buffer)]));
}
// GraphProto { node = 1; name = 2; initializer = 5; doc_string = 10; input = 11; output = 12 }
// ModelProto { ir_version = 1; producer_name = 2; producer_version = 3; graph = 7; opset_import = 8 }
// OperatorSetIdProto { domain = 1; version = 2 }
function model(graph) {
  return Uint8Array.from(message(int(1, 8), string(2, 'seqorder bench/make-onnx-graphs.mjs'), string(3, '1'),
    sub(7, graph), sub(8, message(string(1, ''), int(2, 17)))));
}

/** The attention graph for width D (scale 1/√D), with or without an additive mask input. */
export function attentionGraph({ causal, width = WIDTH }) {
  const nodes = [
    node('Transpose', ['k'], ['k_t'], [intsAttribute('perm', [1, 0])]),  // (D, T)
    node('MatMul', ['q', 'k_t'], ['scores']),                              // (T, T)
    node('Mul', ['scores', 'scale'], ['scaled']),                          // · 1/√D
  ];
  let logits = 'scaled';
  if (causal) {
    nodes.push(node('Add', ['scaled', 'mask'], ['masked']));  // + 0 or −inf
    logits = 'masked';
  }
  nodes.push(node('Softmax', [logits], ['weights'], [intAttribute('axis', -1)]), node('MatMul', ['weights', 'v'], ['output']));
  const inputs = [floatInput('q', ['T', width]), floatInput('k', ['T', width]), floatInput('v', ['T', width])];
  if (causal) inputs.push(floatInput('mask', ['T', 'T']));
  const graph = message(...nodes.map((n) => sub(1, n)), string(2, causal ? 'causal_attention' : 'attention'),
    sub(5, scalar('scale', 1 / Math.sqrt(width))),
    string(10, `scaled dot-product attention, D = ${width}${causal ? ', additive causal mask' : ''}`),
    ...inputs.map((i) => sub(11, i)), sub(12, floatInput('output', ['T', width])));
  return model(graph);
}

export const graphFile = (causal) => path.join(dir, `attention${causal ? '-causal' : ''}-d${WIDTH}.onnx`);

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(dir, { recursive: true });
  for (const causal of [false, true]) {
    const bytesOut = attentionGraph({ causal });
    writeFileSync(graphFile(causal), bytesOut);
    console.log(`wrote ${path.relative(process.cwd(), graphFile(causal))} (${bytesOut.length} bytes)`);
  }
}
