// The pool's shared-memory path (pool.mjs): where this engine lets workers share memory (node; browsers on a
// cross-origin isolated page), one WebAssembly.Memory is shared by the pool's workers, each running the kernel module
// (seqorder_kernel.wasm: the fused attention alone, src/bindings/kernel.cpp) on it. A call's q, k and v are written
// there once; each worker computes its runs of rows in place (split.mjs's cuts, on the fused kernel's row groups,
// so the results are the bits of one thread) and answers with nothing but "done"; its rows of the output are read
// once, as soon as it answers. Nothing is copied per worker, and no result crosses a message: what is left of the
// pool's cost is the copies in and out and waking the workers.
//
// The memory: [0, heapBase) is the kernel module's own (its data, and the stack of the instance on this thread, which
// is only asked sizes); then one stack per worker (STACK_BYTES each: the instance of worker i gets stack i through
// its __stack_pointer); then the area of the call running: q, k, v, the output, each run's scratch memory, and the
// kernel module's calls (one KernelCall each, written by member name: the main module names them). Calls take the
// area in turn: one waits until every worker of the call before it has finished (its inputs copied aside meanwhile: a
// call reads its inputs when it is made).
import { checkStillThere, stillThere } from '../arguments.mjs';
import { isNode } from '../env.mjs';
import { callsOf } from './split.mjs';

const PAGE = 65536;
const MAX_PAGES = 32768;  // 2 GiB: the kernel module's declared maximum (CMakeLists.txt, --max-memory)
const STACK_BYTES = 65536;  // each worker's stack (the kernel uses a few hundred bytes of it)
const ALIGN = 64;  // every tensor and scratch block starts on a cache line

const alignUp = (n) => Math.ceil(n / ALIGN) * ALIGN;

/**
 * Why workers cannot share memory here (a message), or null when they can: browsers allow it only on cross-origin
 * isolated pages, and only some of them even there. The test is what the pool does, a shared WebAssembly.Memory posted
 * through a MessageChannel (WebKitGTK, say, makes shared memories on such a page but cannot post them).
 */
export function sharedMemoryMissing() {
  if (!isNode && globalThis.crossOriginIsolated !== true)
    return 'the page is not cross-origin isolated (serve it with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)';
  let channel;
  try {
    channel = new MessageChannel();
    channel.port1.postMessage(new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }));
  } catch (error) {
    return `this engine cannot post a shared WebAssembly memory to a worker (${error.name}: ${error.message})`;
  } finally {
    channel?.port1.close();
    channel?.port2.close();
  }
  return null;
}

/** The calls of the kernel module a run makes: attention_rows's KernelCall (kernel.cpp), by member. */
function runCalls(plan, [first, end], at) {
  const { queries: Tq, keys: Tk, width: D, valueWidth: Dv } = plan;
  return callsOf(plan, first, end).map(({ item, items, row, rows }) => ({
    output: at.output + 4 * (item * Tq + row) * Dv,
    q: at.q + 4 * (item * Tq + row) * D,
    k: at.k + 4 * item * Tk * D,
    v: at.v + 4 * item * Tk * Dv,
    batch: items, queries: rows, keys: Tk, width: D, valueWidth: Dv,
    causal: plan.causal ? 1 : 0,
    queryStart: plan.causal ? plan.queryStart + row : 0,
    scratch: at.scratch,
  }));
}

/**
 * The shared memory of a pool of `count` workers, over the compiled kernel module (`core`, an instance of the main
 * module, names its calls' members): { stackOf(index) (the worker's share: { module, memory, stackTop }, for its
 * 'load' op), fits(plan, runs) (whether a call fits in 2 GiB), attention(read, runs, workers) (a promise of the call's
 * output tensor) }.
 */
export async function sharedKernel(module, count, core) {
  // 1 MiB to start (more than the module's own data and stack); grown for the stacks, then for each call
  const memory = new WebAssembly.Memory({ initial: 16, maximum: MAX_PAGES, shared: true });
  const own = (await WebAssembly.instantiate(module, { env: { memory } })).exports;  // asked sizes only
  const heapBase = alignUp(own.__heap_base.value);
  const areaBase = heapBase + count * STACK_BYTES;
  const callFields = core.kernelCallMembers().split(' ');  // KernelCall's members, in order (kernel_call.hpp)
  let running = null;  // the call holding the area: a promise that settles when its workers are done, else null

  /**
   * The area's layout for a call: byte offsets of q, k, v, the output, the runs' scratch and the kernel module's calls
   * (`calls` of them), and its end.
   */
  function layout(plan, runs, calls = 0) {
    const { batch: B, queries: Tq, keys: Tk, width: D, valueWidth: Dv } = plan;
    const at = { q: areaBase };
    at.k = alignUp(at.q + 4 * B * Tq * D);
    at.v = alignUp(at.k + 4 * B * Tk * D);
    at.output = alignUp(at.v + 4 * B * Tk * Dv);
    at.scratch = alignUp(at.output + 4 * B * Tq * Dv);
    const scratch = alignUp(own.scratch_bytes(Math.max(Tk, 1), D, Dv));
    at.calls = at.scratch + runs * scratch;
    at.end = at.calls + calls * 4 * callFields.length;
    at.scratchBytes = scratch;
    return at;
  }

  /** Writes `calls` (runCalls's) as KernelCalls (a uint32 a member) from `address` on; their addresses. */
  function writeCalls(calls, address) {
    return calls.map((call, n) => {
      const at = address + n * 4 * callFields.length;
      const members = new Uint32Array(memory.buffer, at, callFields.length);
      callFields.forEach((name, i) => { members[i] = call[name]; });
      return at;
    });
  }

  /** The memory holds at least `bytes` (grown, in whole pages). */
  function reserve(bytes) {
    const pages = Math.ceil(bytes / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
  }
  reserve(areaBase);

  return {
    stackOf: (index) => ({ module, memory, stackTop: heapBase + (index + 1) * STACK_BYTES }),

    /** Whether the call's tensors and scratch fit in the shared memory's 2 GiB (else the pool copies, as without it). */
    fits: (plan, runs) => layout(plan, runs.length).end <= MAX_PAGES * PAGE,

    /**
     * The call read by the pool (read: attentionPlanner's record; its plan fused) on the workers, its rows cut into
     * `runs`: a promise of the output tensor, written into read.out when given.
     */
    async attention(read, runs, workers) {
      // The inputs are read now, when the call is made (as one thread reads them): written into the area at once if
      // it is free, else copied aside until the call before this one has finished with it.
      const inputs = [['q', read.q], ['k', read.k], ['v', read.v]].map(([name, record]) => {
        checkStillThere(record.data);
        const { buffer, byteOffset, length } = record.data;
        return [name, new Float32Array(buffer, byteOffset, length)];
      });
      const staged = running ? inputs.map(([name, view]) => [name, view.slice()]) : inputs;
      while (running) await running;
      let release;
      running = new Promise((resolve) => { release = resolve; });
      try {
        const { plan } = read;
        const callCount = runs.reduce((n, [first, end]) => n + callsOf(plan, first, end).length, 0);
        const at = layout(plan, runs.length, callCount);
        reserve(at.end);
        const heap = memory.buffer;
        for (const [name, view] of staged) new Float32Array(heap, at[name], view.length).set(view);
        const Dv = plan.valueWidth;
        let data = null;  // the result's array (null: read.out's memory), made once the workers are asked (below)
        const busy = new Set();
        let callsAt = at.calls;
        const done = runs.map((run, r) => {
          const index = workers.idlest(busy);
          busy.add(index);
          const calls = writeCalls(runCalls(plan, run, { ...at, scratch: at.scratch + r * at.scratchBytes }), callsAt);
          callsAt += calls.length * 4 * callFields.length;
          // A run's rows are contiguous in the output: read as soon as its worker is done, on the core it has just
          // freed, while the others still run (so only the last run's rows are read after the last answer). An `out`
          // detached meanwhile is skipped here and reported below.
          const [first, end] = run;
          return workers.request(index, 'kernelAttention', { calls }).then(() => {
            if (read.out && !stillThere(read.out)) return;
            const rows = new Float32Array(memory.buffer, at.output + 4 * first * Dv, (end - first) * Dv);
            (data ?? new Float32Array(read.out.buffer, read.out.byteOffset, read.out.length)).set(rows, first * Dv);
          });
        });
        // the result's array made while the workers run (its pages touched now, not while the caller waits); every
        // answer comes later, on a later turn of the event loop
        if (!read.out) data = new Float32Array(plan.batch * plan.queries * Dv);
        const settled = await Promise.allSettled(done);
        const failed = settled.find((outcome) => outcome.status === 'rejected');
        if (failed) {
          await workers.stopped();  // a worker that died mid-run must not write into the next call's area
          throw failed.reason;
        }
        const shape = plan.results.at(-1);
        if (!read.out) return { data, shape, dtype: 'float32' };
        checkStillThere(read.out);
        return { data: read.out.view, shape, dtype: 'float32' };
      } finally {
        running = null;
        release();
      }
    },
  };
}
