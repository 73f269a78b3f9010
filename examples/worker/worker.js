// The worker: one seqorder instance, loaded once; each message is one causal self-attention call.
import { loadSeqorder } from 'seqorder';

const ready = loadSeqorder();
self.onmessage = async ({ data: { q, causal } }) => {
  try {
    const so = await ready;
    const start = performance.now();
    const output = so.attention(q, q, q, { causal });
    self.postMessage({ output, ms: performance.now() - start }, [output.data.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
