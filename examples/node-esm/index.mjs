// seqorder in node (ES modules): a small transformer learns the lesson's task (does robot come before person?), with
// positions and without. Without positions or a mask it sees a sentence and its mirror as the same bag of words.
// seqorder/model loads the model module beside the main one (seqorder alone loads the main module: no createModel).
import { loadSeqorder } from 'seqorder/model';

const so = await loadSeqorder();
for (const positions of ['sinusoidal', 'none']) {
  const model = so.createModel({ vocab: so.taskWords.length, width: 32, heads: 2, classes: 2, positions, seed: 3 });
  for (let k = 0; k < 300; k++) {
    const { ids, targets } = so.orderTask({ count: 32, length: 12, seed: 1000 + k });
    model.step(ids, targets, { lr: 1e-2 });
  }
  const test = so.orderTask({ count: 512, length: 12, seed: 7, mirrored: true });
  const logits = model.forward(test.ids);
  const right = test.targets.data.filter((t, s) => t === Number(logits.data[2 * s + 1] > logits.data[2 * s])).length;
  console.log(`seqorder node-esm ${positions}: ${(100 * right / 512).toFixed(1)}% of 512 mirrored sentences`);
  model.dispose();
}
