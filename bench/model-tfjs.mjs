// The benchmark's TensorFlow.js contender for training (bench/model-train.mjs): seqorder's model (sinusoidal positions,
// pre-norm blocks, not causal, readout 'mean'; src/core/model/network.hpp) written with tfjs-core's ops, its gradients
// from tf.variableGrads and its steps from tf.train.adam, on whatever backend is set (the benchmark sets 'wasm').

/**
 * A model of `config` ({ vocab, width, heads, layers, classes }) whose variables start from `parameters` (seqorder's
 * model.parameters()): { loss(ids, targets), step(ids, targets) -> the loss before it, dispose() }. ids and targets are
 * int32 tensors { data, shape } of (B, T) and (B).
 */
export function tfjsModel(tf, { vocab, width, heads, layers, classes }, parameters, { lr }) {
  const D = width;
  const H = heads;
  const hd = D / H;
  const variables = Object.fromEntries(Object.entries(parameters).map(([name, p]) => [name, tf.variable(tf.tensor(p.data, p.shape, 'float32'), true, name)]));
  const optimizer = tf.train.adam(lr, 0.9, 0.999, 1e-8);
  const tables = new Map(); // T -> the sinusoid table (T, D)

  function sinusoids(T) {
    if (!tables.has(T)) {
      const table = new Float32Array(T * D);
      for (let t = 0; t < T; t++) {
        for (let i = 0; i < D / 2; i++) {
          table[t * D + 2 * i] = Math.sin(t * 10000 ** (-2 * i / D));
          table[t * D + 2 * i + 1] = Math.cos(t * 10000 ** (-2 * i / D));
        }
      }
      tables.set(T, tf.keep(tf.tensor2d(table, [T, D])));
    }
    return tables.get(T);
  }

  const layerNorm = (x, gain, bias) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return tf.add(tf.mul(tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, 1e-5))), gain), bias);
  };

  /** The mean cross-entropy of ids (B, T) against targets (B), as a scalar tensor. */
  function lossOf(ids, targets) {
    const [B, T] = ids.shape;
    const v = (name) => variables[name];
    const oneHot = tf.oneHot(tf.tensor1d(ids.data, 'int32'), vocab);               // (B T, V): the lookup as a product
    let x = tf.add(tf.reshape(tf.matMul(oneHot, v('embed')), [B, T, D]), sinusoids(T));  // (B, T, D)
    x = tf.reshape(x, [B * T, D]);
    const split = (y) => tf.transpose(tf.reshape(y, [B, T, H, hd]), [0, 2, 1, 3]);  // (B T, D) -> (B, H, T, hd)
    for (let l = 0; l < layers; l++) {
      const p = (name) => v(`layers.${l}.${name}`);
      const h = layerNorm(x, p('norm1.gain'), p('norm1.bias'));
      const [q, k, vv] = ['wq', 'wk', 'wv'].map((w) => split(tf.matMul(h, p(`attention.${w}`))));
      const weights = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(hd)));  // (B, H, T, T)
      const heads = tf.reshape(tf.transpose(tf.matMul(weights, vv), [0, 2, 1, 3]), [B * T, D]);
      x = tf.add(x, tf.matMul(heads, p('attention.wo')));
      const h2 = layerNorm(x, p('norm2.gain'), p('norm2.bias'));
      x = tf.add(x, tf.add(tf.matMul(tf.relu(tf.add(tf.matMul(h2, p('mlp.w1')), p('mlp.b1'))), p('mlp.w2')), p('mlp.b2')));
    }
    const pooled = tf.mean(tf.reshape(layerNorm(x, v('norm.gain'), v('norm.bias')), [B, T, D]), 1);  // (B, D)
    const logits = tf.add(tf.matMul(pooled, v('readout.weight')), v('readout.bias'));          // (B, C)
    const picked = tf.sum(tf.mul(tf.logSoftmax(logits), tf.oneHot(tf.tensor1d(targets.data, 'int32'), classes)), 1);
    return tf.neg(tf.mean(picked));
  }

  return {
    loss(ids, targets) {
      return tf.tidy(() => lossOf(ids, targets).dataSync()[0]);
    },
    step(ids, targets) {
      const { value, grads } = tf.variableGrads(() => lossOf(ids, targets));
      optimizer.applyGradients(grads);
      const loss = value.dataSync()[0];
      tf.dispose([value, ...Object.values(grads)]);
      return loss;
    },
    dispose() {
      tf.dispose([...Object.values(variables), ...tables.values()]);
      optimizer.dispose();
    },
  };
}
