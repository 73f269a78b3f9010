// The benchmark's plain-JS contender for training (bench/model-train.mjs): seqorder's model (src/core/model/network.hpp)
// written straightforwardly in JavaScript, forward, backward and Adam: token embedding plus the sinusoidal positions,
// pre-norm blocks x + Wo·attention(LN1(x)) (H heads, not causal) and x + relu(LN2(x) W1 + b1) W2 + b2, a final
// LayerNorm, the mean over positions and a linear readout; mean cross-entropy. Parameters and activations are
// Float32Arrays, arithmetic is JavaScript's (float64), loops are plain: what a careful JS programmer would write first.
// Weights are used as x W, W of shape (D_in, D_out), as seqorder's are.

const LN_EPS = 1e-5;
const BETA1 = 0.9;
const BETA2 = 0.999;
const ADAM_EPS = 1e-8;

// ---- the steps, on flat row-major arrays ----

/** out (n, m) = a (n, k) b (k, m), plus bias (m) when given. */
function matmul(out, a, b, n, k, m, bias) {
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) out[i * m + j] = bias ? bias[j] : 0;
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p];
      if (x === 0) continue;
      for (let j = 0; j < m; j++) out[i * m + j] += x * b[p * m + j];
    }
  }
}

/** The backward pass of out = x w + bias: dx (n, k) = dout w^T; dw (k, m) += x^T dout; dbias (m) += sums of dout. */
function matmulBackward(dx, dw, dbias, dout, x, w, n, k, m) {
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < k; p++) {
      let s = 0;
      for (let j = 0; j < m; j++) s += dout[i * m + j] * w[p * m + j];
      if (dx) dx[i * k + p] = s;
      const xv = x[i * k + p];
      for (let j = 0; j < m; j++) dw[p * m + j] += xv * dout[i * m + j];
    }
    if (dbias) for (let j = 0; j < m; j++) dbias[j] += dout[i * m + j];
  }
}

/** out (n, d) = LayerNorm(x) gain + bias; keeps each row's mean and 1 / std. */
function layernorm(out, mean, rstd, x, gain, bias, n, d) {
  for (let i = 0; i < n; i++) {
    let mu = 0;
    for (let j = 0; j < d; j++) mu += x[i * d + j];
    mu /= d;
    let variance = 0;
    for (let j = 0; j < d; j++) variance += (x[i * d + j] - mu) ** 2;
    const s = 1 / Math.sqrt(variance / d + LN_EPS);
    mean[i] = mu;
    rstd[i] = s;
    for (let j = 0; j < d; j++) out[i * d + j] = (x[i * d + j] - mu) * s * gain[j] + bias[j];
  }
}

/** dx (n, d) += the gradient through the LayerNorm of x; dgain, dbias (d) += theirs. */
function layernormBackward(dx, dgain, dbias, dout, x, mean, rstd, gain, n, d) {
  for (let i = 0; i < n; i++) {
    let meanG = 0;
    let meanGX = 0;
    for (let j = 0; j < d; j++) {
      const xhat = (x[i * d + j] - mean[i]) * rstd[i];
      const g = dout[i * d + j] * gain[j];
      meanG += g;
      meanGX += g * xhat;
      dgain[j] += dout[i * d + j] * xhat;
      dbias[j] += dout[i * d + j];
    }
    meanG /= d;
    meanGX /= d;
    for (let j = 0; j < d; j++) {
      const xhat = (x[i * d + j] - mean[i]) * rstd[i];
      dx[i * d + j] += rstd[i] * (dout[i * d + j] * gain[j] - meanG - xhat * meanGX);
    }
  }
}

// ---- the model ----

/** Layer l's parameter names, in seqorder's order (parameters.hpp). */
const layerNames = (l) => ['norm1.gain', 'norm1.bias', 'attention.wq', 'attention.wk', 'attention.wv', 'attention.wo',
  'norm2.gain', 'norm2.bias', 'mlp.w1', 'mlp.b1', 'mlp.w2', 'mlp.b2'].map((n) => `layers.${l}.${n}`);

export class PlainModel {
  /**
   * config: { vocab, width, heads, layers, classes } (sinusoidal positions, not causal, readout 'mean');
   * parameters: { [name]: { data, shape } } as seqorder's model.parameters() gives them (copied).
   */
  constructor({ vocab, width, heads, layers, classes }, parameters) {
    Object.assign(this, { V: vocab, D: width, H: heads, L: layers, C: classes });
    this.names = ['embed', ...Array.from({ length: layers }, (_, l) => layerNames(l)).flat(), 'norm.gain', 'norm.bias', 'readout.weight', 'readout.bias'];
    this.p = Object.fromEntries(this.names.map((n) => [n, Float32Array.from(parameters[n].data)]));
    this.g = Object.fromEntries(this.names.map((n) => [n, new Float32Array(this.p[n].length)]));
    this.m = Object.fromEntries(this.names.map((n) => [n, new Float32Array(this.p[n].length)]));
    this.v = Object.fromEntries(this.names.map((n) => [n, new Float32Array(this.p[n].length)]));
    this.t = 0;
    this.shape = null;
  }

  /** Buffers for a batch of (B, T); the sinusoid table of T rows. */
  prepare(B, T) {
    if (this.shape === `${B}x${T}`) return;
    this.shape = `${B}x${T}`;
    const { D, L, C, H } = this;
    const N = B * T;
    const f32 = (n) => new Float32Array(n);
    this.a = {
      x: Array.from({ length: L + 1 }, () => f32(N * D)), ln1: [], ln2: [], mean1: [], rstd1: [], mean2: [], rstd2: [],
      q: [], k: [], v: [], w: [], att: [], mid: [], hidden: [],
      lnf: f32(N * D), meanf: f32(N), rstdf: f32(N), pooled: f32(B * D), logits: f32(B * C),
    };
    for (let l = 0; l < L; l++) {
      for (const key of ['ln1', 'ln2', 'q', 'k', 'v', 'att', 'mid']) this.a[key].push(f32(N * D));
      for (const key of ['mean1', 'rstd1', 'mean2', 'rstd2']) this.a[key].push(f32(N));
      this.a.w.push(f32(B * H * T * T));
      this.a.hidden.push(f32(N * 4 * D));
    }
    this.table = f32(T * D);
    for (let t = 0; t < T; t++) {
      for (let i = 0; i < D / 2; i++) {
        const angle = t * 10000 ** (-2 * i / D);
        this.table[t * D + 2 * i] = Math.sin(angle);
        this.table[t * D + 2 * i + 1] = Math.cos(angle);
      }
    }
    this.d = { x: f32(N * D), ln: f32(N * D), att: f32(N * D), q: f32(N * D), k: f32(N * D), v: f32(N * D), hidden: f32(N * 4 * D), w: f32(T * T) };
  }

  /** ids (B, T) -> the mean cross-entropy over targets (B); keeps what the backward pass needs. */
  forward(ids, targets, B, T) {
    this.prepare(B, T);
    const { D, H, L, C, p, a } = this;
    const N = B * T;
    const hd = D / H;
    const x0 = a.x[0];
    for (let n = 0; n < N; n++)
      for (let j = 0; j < D; j++) x0[n * D + j] = p.embed[ids[n] * D + j] + this.table[(n % T) * D + j];
    for (let l = 0; l < L; l++) {
      const param = (s) => p[`layers.${l}.${s}`];
      const x = a.x[l];
      layernorm(a.ln1[l], a.mean1[l], a.rstd1[l], x, param('norm1.gain'), param('norm1.bias'), N, D);
      matmul(a.q[l], a.ln1[l], param('attention.wq'), N, D, D);
      matmul(a.k[l], a.ln1[l], param('attention.wk'), N, D, D);
      matmul(a.v[l], a.ln1[l], param('attention.wv'), N, D, D);
      const q = a.q[l], k = a.k[l], v = a.v[l], w = a.w[l], att = a.att[l];
      const scale = 1 / Math.sqrt(hd);
      for (let b = 0; b < B; b++) {
        for (let h = 0; h < H; h++) {
          for (let i = 0; i < T; i++) {
            const row = ((b * H + h) * T + i) * T;
            const qi = (b * T + i) * D + h * hd;
            let max = -Infinity;
            for (let j = 0; j < T; j++) {
              const kj = (b * T + j) * D + h * hd;
              let s = 0;
              for (let e = 0; e < hd; e++) s += q[qi + e] * k[kj + e];
              w[row + j] = s * scale;
              max = Math.max(max, w[row + j]);
            }
            let sum = 0;
            for (let j = 0; j < T; j++) sum += (w[row + j] = Math.exp(w[row + j] - max));
            for (let j = 0; j < T; j++) w[row + j] /= sum;
            for (let e = 0; e < hd; e++) {
              let s = 0;
              for (let j = 0; j < T; j++) s += w[row + j] * v[(b * T + j) * D + h * hd + e];
              att[qi + e] = s;
            }
          }
        }
      }
      const mid = a.mid[l];
      matmul(mid, att, param('attention.wo'), N, D, D);
      for (let n = 0; n < N * D; n++) mid[n] += x[n];
      layernorm(a.ln2[l], a.mean2[l], a.rstd2[l], mid, param('norm2.gain'), param('norm2.bias'), N, D);
      const hidden = a.hidden[l];
      matmul(hidden, a.ln2[l], param('mlp.w1'), N, D, 4 * D, param('mlp.b1'));
      for (let n = 0; n < N * 4 * D; n++) if (hidden[n] < 0) hidden[n] = 0;
      const out = a.x[l + 1];
      matmul(out, hidden, param('mlp.w2'), N, 4 * D, D, param('mlp.b2'));
      for (let n = 0; n < N * D; n++) out[n] += mid[n];
    }
    layernorm(a.lnf, a.meanf, a.rstdf, a.x[L], p['norm.gain'], p['norm.bias'], N, D);
    a.pooled.fill(0);
    for (let n = 0; n < N; n++) for (let j = 0; j < D; j++) a.pooled[Math.floor(n / T) * D + j] += a.lnf[n * D + j] / T;
    matmul(a.logits, a.pooled, p['readout.weight'], B, D, C, p['readout.bias']);
    let loss = 0;
    for (let b = 0; b < B; b++) {
      const row = a.logits.subarray(b * C, b * C + C);
      const max = Math.max(...row);
      let sum = 0;
      for (const z of row) sum += Math.exp(z - max);
      loss += Math.log(sum) + max - row[targets[b]];
    }
    return loss / B;
  }

  /** The gradient of forward's loss into this.g (after forward on the same batch). */
  backward(ids, targets, B, T) {
    const { D, H, L, C, p, g, a, d } = this;
    const N = B * T;
    const hd = D / H;
    for (const n of this.names) g[n].fill(0);
    const dlogits = new Float32Array(B * C);
    for (let b = 0; b < B; b++) {
      const row = a.logits.subarray(b * C, b * C + C);
      const max = Math.max(...row);
      let sum = 0;
      for (const z of row) sum += Math.exp(z - max);
      for (let c = 0; c < C; c++) dlogits[b * C + c] = (Math.exp(row[c] - max) / sum - (c === targets[b] ? 1 : 0)) / B;
    }
    const dpooled = new Float32Array(B * D);
    matmulBackward(dpooled, g['readout.weight'], g['readout.bias'], dlogits, a.pooled, p['readout.weight'], B, D, C);
    for (let n = 0; n < N; n++) for (let j = 0; j < D; j++) d.ln[n * D + j] = dpooled[Math.floor(n / T) * D + j] / T;
    d.x.fill(0);
    layernormBackward(d.x, g['norm.gain'], g['norm.bias'], d.ln, a.x[L], a.meanf, a.rstdf, p['norm.gain'], N, D);
    for (let l = L - 1; l >= 0; l--) {
      const name = (s) => `layers.${l}.${s}`;
      // x = mid + relu(LN2(mid) W1 + b1) W2 + b2: d.x is the gradient at x, and flows on to mid unchanged
      const hidden = a.hidden[l];
      matmulBackward(d.hidden, g[name('mlp.w2')], g[name('mlp.b2')], d.x, hidden, p[name('mlp.w2')], N, 4 * D, D);
      for (let n = 0; n < N * 4 * D; n++) if (hidden[n] === 0) d.hidden[n] = 0;
      matmulBackward(d.ln, g[name('mlp.w1')], g[name('mlp.b1')], d.hidden, a.ln2[l], p[name('mlp.w1')], N, D, 4 * D);
      layernormBackward(d.x, g[name('norm2.gain')], g[name('norm2.bias')], d.ln, a.mid[l], a.mean2[l], a.rstd2[l], p[name('norm2.gain')], N, D);
      // mid = x + att Wo
      matmulBackward(d.att, g[name('attention.wo')], null, d.x, a.att[l], p[name('attention.wo')], N, D, D);
      const q = a.q[l], k = a.k[l], v = a.v[l], w = a.w[l];
      d.q.fill(0);
      d.k.fill(0);
      d.v.fill(0);
      const scale = 1 / Math.sqrt(hd);
      for (let b = 0; b < B; b++) {
        for (let h = 0; h < H; h++) {
          const base = (b * H + h) * T * T;
          for (let i = 0; i < T; i++) {
            const qi = (b * T + i) * D + h * hd;
            // dW = dAtt v^T; dv += W^T dAtt; dS = W (dW - sum(dW W)) scale
            let dot = 0;
            for (let j = 0; j < T; j++) {
              const vj = (b * T + j) * D + h * hd;
              let s = 0;
              for (let e = 0; e < hd; e++) {
                s += d.att[qi + e] * v[vj + e];
                d.v[vj + e] += w[base + i * T + j] * d.att[qi + e];
              }
              d.w[i * T + j] = s;
              dot += s * w[base + i * T + j];
            }
            for (let j = 0; j < T; j++) {
              const ds = w[base + i * T + j] * (d.w[i * T + j] - dot) * scale;
              const kj = (b * T + j) * D + h * hd;
              for (let e = 0; e < hd; e++) {
                d.q[qi + e] += ds * k[kj + e];
                d.k[kj + e] += ds * q[qi + e];
              }
            }
          }
        }
      }
      d.ln.fill(0);
      for (const [dy, weight] of [[d.q, 'attention.wq'], [d.k, 'attention.wk'], [d.v, 'attention.wv']]) {
        matmulBackward(d.att, g[name(weight)], null, dy, a.ln1[l], p[name(weight)], N, D, D);  // d.att: scratch
        for (let n = 0; n < N * D; n++) d.ln[n] += d.att[n];
      }
      layernormBackward(d.x, g[name('norm1.gain')], g[name('norm1.bias')], d.ln, a.x[l], a.mean1[l], a.rstd1[l], p[name('norm1.gain')], N, D);
    }
    for (let n = 0; n < N; n++) for (let j = 0; j < D; j++) g.embed[ids[n] * D + j] += d.x[n * D + j];
  }

  /** One Adam step (lr) on ids (B, T), targets (B); returns the loss before it. */
  step(ids, targets, B, T, lr) {
    const loss = this.forward(ids, targets, B, T);
    this.backward(ids, targets, B, T);
    this.t += 1;
    const c1 = 1 - BETA1 ** this.t;
    const c2 = 1 - BETA2 ** this.t;
    for (const n of this.names) {
      const p = this.p[n], g = this.g[n], m = this.m[n], v = this.v[n];
      for (let i = 0; i < p.length; i++) {
        m[i] = BETA1 * m[i] + (1 - BETA1) * g[i];
        v[i] = BETA2 * v[i] + (1 - BETA2) * g[i] * g[i];
        p[i] -= (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + ADAM_EPS);
      }
    }
    return loss;
  }
}
