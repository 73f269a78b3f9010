// A node worker thread of model.test.mjs: loads the package, trains a model for a few steps, and posts its
// configuration, parameters (their buffers transferred), some ids and its logits on them.
import { parentPort } from 'node:worker_threads';
import { loadSeqorder } from './load.mjs';

const so = await loadSeqorder();
const model = so.createModel({ vocab: 16, width: 32, heads: 2, positions: 'learned', maxLength: 12, classes: 2, seed: 5 });
for (let k = 0; k < 20; k++) {
  const { ids, targets } = so.orderTask({ count: 32, length: 12, seed: k });
  model.step(ids, targets, { lr: 3e-3 });
}
const { ids } = so.orderTask({ count: 8, length: 12, seed: 99 });
const parameters = model.parameters();
const message = { config: model.config, parameters, ids, logits: model.forward(ids) };
model.dispose();
parentPort.postMessage(message, Object.values(parameters).map((t) => t.data.buffer));
