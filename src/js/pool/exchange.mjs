// A worker's exchange: shared memory through which the pool hands one of its workers a run of attention calls and
// reads back their outputs, the two threads telling each other with Atomics (notify, waitAsync) rather than with a
// message each way (structured cloning, buffers moved, and each thread's event loop woken by the other's message).
// The pool whose calling thread computes a share uses it where memory can be shared (node; a cross-origin isolated
// page: canExchange), for runs of a call split in several (their outputs are laid in place: nothing in shared memory
// is handed to the caller), without steps, on a worker with nothing pending; other runs, and every run of the default
// pool, go by message (pool.mjs, which says why). The inputs are copied once either way: into the exchange here, into
// a spare buffer moved with the message there.
//
// Per worker (and per worker started at its index: a worker that replaces one that died gets a new exchange):
//   control  Int32Array on a SharedArrayBuffer: [JOB] the number of the last run handed, [DONE] of the last run done;
//   header   Float64Array on a SharedArrayBuffer: the run (HEAD's fields, then CALL_FIELDS for each of its calls);
//   arena    a SharedArrayBuffer holding the run's slabs of q, k, v and its outputs (grown as runs need).
// The worker learns of an exchange (and of each larger arena) by the op 'exchange' (worker.mjs), sent while no run
// waits on it; until it has answered, runs go by message. A run is then handed by writing it, storing JOB and notifying;
// the worker, waiting on JOB (listen()), computes it in turn with its ops (protocol.mjs's background), stores DONE and
// notifies. The run is a request of the worker set (its expect()), so a worker that dies rejects it as it rejects a
// message, and an error the run throws comes back as a message answering it.
import { DTYPES } from '../arguments.mjs';
import { callPlaces, elementsOf } from './split.mjs';

const JOB = 0;
const DONE = 1;
/** The header's fields: the request's id, the run's calls, dtype, D, Dv, Tk, causal; then the worker's time and end. */
const [ID, COUNT, DTYPE, WIDTH, VALUE_WIDTH, KEYS, CAUSAL, TOOK, ENDED, HEAD] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
/** Each call's fields: items, rows, queryStart, and the byte offsets of its q, k, v and output in the arena. */
const CALL_FIELDS = 7;
/** The most calls in a run (split.mjs's callsOf: a part of an item, whole items, a part of an item). */
const MOST_CALLS = 3;
const DTYPE_NAMES = Object.keys(DTYPES);
/** The largest arena an exchange grows to; a run that needs more goes by message. */
export const EXCHANGE_BYTES = 32 * 2 ** 20;
/** The least arena made (a run of T = 1024, D = 64, float32, needs 0.75 MiB). */
const LEAST_BYTES = 2 ** 20;

/** Whether this thread can share memory with its workers and wait on it without blocking. */
export const canExchange = () => typeof SharedArrayBuffer === 'function' && typeof Atomics?.waitAsync === 'function'
  && globalThis.crossOriginIsolated !== false;

const aligned = (bytes) => Math.ceil(bytes / 16) * 16;

/**
 * Where each call of a run goes in the arena: [{ places (callPlaces': where it is in the whole call's tensors),
 * q, k, v, out (byte offsets in the arena) }], and the bytes they take.
 */
function layout(plan, calls) {
  const size = DTYPES[plan.dtype].BYTES_PER_ELEMENT;
  let bytes = 0;
  const place = ({ size: elements }) => {
    const at = bytes;
    bytes += aligned(elements * size);
    return at;
  };
  const placed = calls.map((call) => {
    const places = callPlaces(plan, call);
    return { places, q: place(places.q), k: place(places.k), v: place(places.v), out: place(places.out) };
  });
  return { placed, bytes };
}

/**
 * The pool's side: exchanges(workers) → hand(index, read, calls): run `calls` (callsOf's, of the call `read`) on worker
 * `index` through its exchange, or null when it cannot go that way now (then by message). Handed, it is
 * { wait(spinMs) → a promise of what the op 'attention' answers ({ results, inputs: [], took, ended }, the results
 * views of the arena, valid until release()), release() (the exchange free for the next run: once the outputs are
 * laid in place, or the call failed) }. wait(spinMs) first spins up to spinMs on this thread (one that has just
 * computed its own share, whose worker is about to end), then waits without blocking.
 */
export function exchanges(workers) {
  const byIndex = new Map();  // index → { generation, control, header, arena (the one the worker has, or null), job }

  /** Worker `index`'s exchange, new for a worker that replaced the one it was made for. */
  function exchangeOf(index) {
    const generation = workers.generation(index);
    let ex = byIndex.get(index);
    if (!ex || ex.generation !== generation) {
      ex = {
        generation,
        control: new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT)),
        header: new Float64Array(new SharedArrayBuffer((HEAD + MOST_CALLS * CALL_FIELDS) * Float64Array.BYTES_PER_ELEMENT)),
        arena: null, job: 0,
      };
      byIndex.set(index, ex);
    }
    return ex;
  }

  /**
   * Sends worker `index` an arena of at least `bytes` (the op 'exchange'); runs go by message until it has it (the
   * request pending, the worker is not idle: hand() sends nothing more meanwhile).
   */
  function install(index, ex, bytes) {
    const arena = new SharedArrayBuffer(Math.min(EXCHANGE_BYTES, Math.max(LEAST_BYTES, bytes, 2 * (ex.arena?.byteLength ?? 0))));
    workers.request(index, 'exchange', { control: ex.control.buffer, header: ex.header.buffer, arena }).then(() => {
      ex.arena = arena;
    }, () => {});
  }

  function hand(index, read, calls) {
    const { plan } = read;
    if (calls.length > MOST_CALLS || !workers.idle(index)) return null;
    const { placed, bytes } = layout(plan, calls);
    if (bytes > EXCHANGE_BYTES) return null;
    const ex = exchangeOf(index);
    if ((ex.arena?.byteLength ?? 0) < bytes) {
      install(index, ex, bytes);
      return null;
    }
    const Class = DTYPES[plan.dtype];
    const { width: D, valueWidth: Dv, keys: Tk } = plan;
    const view = (at, elements) => new Class(ex.arena, at, elements);
    const copy = (record, { at, size }, to) => view(to, size).set(elementsOf(record, at, at + size));
    const { header, control } = ex;
    placed.forEach(({ places, q, k, v, out }, c) => {
      copy(read.q, places.q, q);
      copy(read.k, places.k, k);
      copy(read.v, places.v, v);
      const [n, rows] = places.q.shape;
      header.set([n, rows, plan.queryStart + calls[c].row, q, k, v, out], HEAD + c * CALL_FIELDS);
    });
    const request = workers.expect(index);
    request.answer.catch(() => {});  // (awaited by wait(); a worker that ends after release() rejects nothing)
    header.set([request.id, calls.length, DTYPE_NAMES.indexOf(plan.dtype), D, Dv, Tk, plan.causal ? 1 : 0], 0);
    const job = ++ex.job;
    Atomics.store(control, JOB, job);
    Atomics.notify(control, JOB);

    const done = () => Atomics.load(control, DONE) === job;
    const answer = () => ({
      results: placed.map(({ places, out }) => ({ data: view(out, places.out.size), shape: places.out.shape, dtype: plan.dtype })),
      inputs: [],
      took: header[TOOK] >= 0 ? header[TOOK] : null,
      ended: header[ENDED],
    });
    return {
      async wait(spinMs = 0) {
        const until = performance.now() + spinMs;
        while (!done() && performance.now() < until);
        while (!done()) {
          const waiting = Atomics.waitAsync(control, DONE, Atomics.load(control, DONE));
          if (waiting.async) await Promise.race([waiting.value, request.answer]);
        }
        return answer();
      },
      release: () => request.settle(),
    };
  }

  return { hand };
}

/**
 * The worker's side: listens on `control` (the op 'exchange' gave it) for as long as the worker lives, and runs each
 * run handed there with background(id, work) (protocol.mjs's serve(): in turn with the ops), computing it with
 * compute(tensors) → { took }, where tensors are the run's calls as { q, k, v, options } on views of `current()`'s
 * arena (its header and arena: the last the op gave); then stores DONE and notifies.
 */
export async function listen(control, current, background, compute) {
  let handled = Atomics.load(control, JOB);
  for (;;) {
    const waiting = Atomics.waitAsync(control, JOB, handled);
    if (waiting.async) await waiting.value;
    const job = Atomics.load(control, JOB);
    if (job === handled) continue;
    handled = job;
    const { header, arena } = current();
    background(header[ID], async () => {
      const dtype = DTYPE_NAMES[header[DTYPE]];
      const Class = DTYPES[dtype];
      const [D, Dv, Tk, causal] = [header[WIDTH], header[VALUE_WIDTH], header[KEYS], header[CAUSAL] === 1];
      const calls = Array.from({ length: header[COUNT] }, (_, c) => {
        const [n, rows, queryStart, q, k, v, out] = header.subarray(HEAD + c * CALL_FIELDS, HEAD + (c + 1) * CALL_FIELDS);
        const tensor = (at, shape) => ({ data: new Class(arena, at, shape[0] * shape[1] * shape[2]), shape, dtype });
        const output = tensor(out, [n, rows, Dv]).data;
        return {
          q: tensor(q, [n, rows, D]), k: tensor(k, [n, Tk, D]), v: tensor(v, [n, Tk, Dv]),
          options: causal ? { causal: true, queryStart, out: output } : { out: output },
        };
      });
      const { took } = await compute(calls);
      header[TOOK] = took ?? -1;
      header[ENDED] = performance.timeOrigin + performance.now();
      Atomics.store(control, DONE, job);
      Atomics.notify(control, DONE);
    });
  }
}
