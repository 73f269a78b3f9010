// A worker for pool.test.mjs's tests of the protocol itself (pool/protocol.mjs): ops that answer, fail, or kill their worker
// in each way a worker can die. Its first op, load, counts the workers started in a shared counter and fails from the
// `failFrom`-th on, so that a replacement can be made to fail.
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { lib } from './load.mjs';

const { serve } = await import(pathToFileURL(path.join(lib, 'pool', 'protocol.mjs')).href);

let id;
let stopped = false;
const ops = {
  load({ counter, failFrom }) {
    id = Atomics.add(new Int32Array(counter), 0, 1);
    if (failFrom !== undefined && id >= failFrom) throw new Error(`worker ${id} refuses to load`);
    return { value: id };
  },
  /** the typed array back (moved), and which worker answered */
  echo({ data }) {
    return { value: { data, id }, transfer: [data.buffer] };
  },
  /** reports 1 … n (the last one's array moved), then answers n */
  count({ n }, report) {
    for (let i = 1; i < n; i++) report(i);
    const last = Float64Array.of(n);
    report(last, [last.buffer]);
    return { value: n };
  },
  fail({ name, message }) {
    throw new globalThis[name](message);
  },
  async wait({ ms }) {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return { value: ms };
  },
  exit({ code }) {
    process.exit(code);
  },
  /** closes its port, with nothing else to run: it ends without an error, and answers nothing */
  closePort() {
    parentPort.close();
    return new Promise(() => {});
  },
  throwLater() {
    setTimeout(() => { throw new Error('thrown outside any op'); }, 200);  // while the next request waits
    return { value: 'thrown later' };
  },
  /** work for request `id` of the caller's (the set's expect()), run after this op: it fails if `fail` */
  async later({ id, fail }) {
    (await served).background(id, () => {
      if (fail) throw new RangeError('late failure');
    });
    return { value: 'queued' };
  },
  stop() {  // a stopped module instance: this op fails, and the worker says it cannot go on
    stopped = true;
    throw new Error('the instance stopped');
  },
};

const served = serve(ops, { fatal: () => stopped });
