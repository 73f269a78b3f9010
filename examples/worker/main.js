// Long calls belong off the page's thread: a module worker loads seqorder and answers each request with attention's
// output. The tensors travel as plain objects; their buffers are moved (transferred), not copied: q's to the worker
// (q.data is empty here afterwards), the output's back.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
const T = 1024;
const D = 64;
const q = { data: Float32Array.from({ length: T * D }, (_, i) => Math.sin(i)), shape: [T, D] };

worker.onmessage = ({ data }) => {
  if (data.error) throw new Error(`the worker failed: ${data.error}`);
  const { output, ms } = data;
  document.getElementById('result').textContent = `attention over ${T} tokens took ${ms.toFixed(1)} ms in the worker: output (${output.shape.join(', ')})`;
  console.log('seqorder worker', output.shape.join('x'), output.dtype);
};
worker.onerror = (event) => console.error(event.message);
worker.postMessage({ q, causal: true }, [q.data.buffer]);
