// A worker of bench/pool.mjs's bound: it keeps its part of one attention case (q's rows, k, v and an output array,
// sent once) and, at each message, computes it with so.attention and answers. What a pool's worker computes in a call,
// without what the pool adds around it: the calling thread's plan and copies, the inputs' messages, the assembly.
import { parentPort, workerData } from 'node:worker_threads';

const { loadSeqorder } = await import(workerData.seqorder);
const so = await loadSeqorder();
let part = null;
parentPort.on('message', (message) => {
  if (message !== null) part = message;
  else so.attention(part.q, part.k, part.v, part.options);
  parentPort.postMessage(null);
});
parentPort.postMessage(null);
