// Helpers of the model's node tests: int32 tensors from rows, a model set up from the numpy fixture, accuracy on the
// order task, a hash of the parameters.

/** An int32 tensor from rows of ids ([[1, 2], [3, 4]] -> (2, 2)) or a flat list ([0, 2] -> (2)). */
export function ids(rows) {
  const nested = Array.isArray(rows[0]);
  return { data: Int32Array.from(nested ? rows.flat() : rows), shape: nested ? [rows.length, rows[0].length] : [rows.length], dtype: 'int32' };
}

const POSITIONS = ['none', 'sinusoidal', 'learned', 'rotary', 'alibi', 'relative'];
const READOUTS = ['mean', 'each'];

/**
 * The float64 model of fixture case `get` (name -> array of tests/fixtures/model.txt's case): its configuration
 * ([vocab, width, heads, layers, positions, maxLength (0: unset), causal, readout, classes, embedScale]) and its
 * parameters.
 */
export function modelFromFixture(so, get) {
  const [vocab, width, heads, layers, positions, maxLength, causal, readout, classes, embedScale, rotaryBase, rotaryPairs,
    buckets, maxDistance] = get('config').values;
  const model = so.createModel({
    vocab, width, heads, layers, positions: POSITIONS[positions], maxLength: maxLength || undefined, causal: causal === 1,
    readout: READOUTS[readout], classes, dtype: 'float64', embedScale, rotaryBase: rotaryBase || undefined,
    rotaryPairs: rotaryPairs || undefined, buckets: buckets || undefined, maxDistance: maxDistance || undefined,
  });
  model.setParameters(Object.fromEntries(Object.keys(model.parameters()).map((name) => {
    const { values, shape } = get(`param/${name}`);
    return [name, { data: values, shape }];
  })));
  return model;
}

/**
 * The fraction of the order task's mirrored pairs of length T (orderTask(512, T, seed 500 + T), as the native training
 * test measures) whose target a 'mean' model predicts: its first largest logit.
 */
export function accuracy(so, model, T) {
  const { ids: sentences, targets } = so.orderTask({ count: 512, length: T, seed: 500 + T, mirrored: true });
  const logits = model.forward(sentences);
  const C = logits.shape[1];
  let right = 0;
  for (let s = 0; s < 512; s++) {
    const row = logits.data.subarray(s * C, s * C + C);
    if (row.indexOf(Math.max(...row)) === targets.data[s]) right++;
  }
  return right / 512;
}

/** FNV-1a over the bytes of every parameter, in order: equal hashes, equal parameters. */
export function parameterHash(model) {
  let h = 0x811c9dc5;
  for (const { data } of Object.values(model.parameters())) {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  }
  return h;
}
