// node bench/induction-first-visit.mjs [steps = 400]: the induction task in seqorder (the built package, WebAssembly, one
// thread), as a first visit of a page could train it: causal models of width 32, 2 heads, token vectors x sqrt(width),
// rotary, sinusoidal and no positions, 1 and 2 layers, seeds 1, 2 and 7, Adam at lr 3e-3 on the lab's batches (32
// sentences of 8 ... 16 words, step k seeded 1000 + k); per model its CPU time and the accuracy at 16 and 32 words.
import { loadSeqorder } from '../dist/lib/model-entry.mjs';
const so = await loadSeqorder();
const steps = Number(process.argv[2] ?? 400);
const score = (model, T) => {
  const { ids, targets } = so.inductionTask({ count: 256, length: T, seed: 500 + T });
  const logits = model.forward(ids).data;
  let right = 0, counted = 0;
  for (let r = 0; r < targets.data.length; r++) {
    if (targets.data[r] === -1) continue;
    let best = 0;
    for (let c = 1; c < 16; c++) if (logits[r * 16 + c] > logits[r * 16 + best]) best = c;
    counted++; right += best === targets.data[r];
  }
  return (100 * right / counted).toFixed(1);
};
for (const positions of ['rotary', 'sinusoidal', 'none'])
  for (const layers of [1, 2])
    for (const seed of [1, 2, 7]) {
      const model = so.createModel({ vocab: 16, width: 32, heads: 2, layers, positions, causal: true, readout: 'each', classes: 16, embedScale: 'sqrtWidth', seed });
      const started = performance.now();
      const cpu = process.cpuUsage();
      for (let k = 0; k < steps; k++) {
        const { ids, targets } = so.inductionTask({ count: 32, length: 8 + (k % 9), seed: 1000 + k });
        model.step(ids, targets, { lr: 3e-3 });
      }
      const used = process.cpuUsage(cpu);
      console.log(`${positions} layers ${layers} seed ${seed}: ${steps} steps ${((used.user + used.system) / 1e3).toFixed(0)} ms CPU (${(performance.now() - started).toFixed(0)} ms wall); T=16 ${score(model, 16)}%, T=32 ${score(model, 32)}%`);
      model.dispose();
    }
