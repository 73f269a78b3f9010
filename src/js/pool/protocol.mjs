// Workers and the protocol they speak, both ends: Web Workers in browsers, worker_threads in node. The pool's workers
// speak it (worker.mjs), and so do the lesson page's worker (web/js/worker.mjs) and the benchmark page's
// (web/js/bench-worker.mjs).
//
// Protocol. Each message to a worker is { id, op, args }; the worker runs ops[op](args, report) (one message at a
// time, in the order they came) and answers { id, value } or { id, error: { name, message }, fatal }; before that, an
// op may send news of its progress with report(value, transfer), each posted as { id, report: value }. An op returns
// { value, transfer } (transfer: the ArrayBuffers to move rather than copy back), or a promise of it; what it throws
// comes back as an error of the same class (TypeError, RangeError, else Error) and message. `fatal` says the worker
// cannot run another op (its module instance stopped), so the set replaces it.
//
// Adding an op (a job that runs in the workers): write it in worker.mjs's table, as
// `name(args) { ...; return { value, transfer: [...buffers of value] }; }` (args arrive as the caller posted them:
// typed arrays, plain objects; the worker's module instance is `so` there), and give the pool a method (pool.mjs,
// beside attention) that calls workers.request(index, 'name', args, transfer): it resolves to the value, or rejects
// with the op's error. State an op keeps between calls lives in the worker; pick the worker with workers.idlest() for
// one-off jobs, or keep to one index for a stateful one: the model ops (modelCreate, modelCall, modelDispose, driven
// by model.mjs) keep each model in the worker that created it. A worker runs one op at a
// time, so a long op delays the ones queued behind it on that worker.
//
// Failure. A worker that dies (an uncaught error, an exit, a message that cannot be read, a fatal op) rejects every
// request it had with an Error saying so, and a new worker takes its place (loaded with the same first op). If that
// one fails to load as well, the set closes: every later request rejects with the reason. workerFailed(error) tells
// these errors (and those of a closed set) from an op's own. A worker that stops without an error event is found too:
// in node by its exit (process.exit(), or its port closed with nothing left to run); in a browser, where a worker that
// calls close(), or that the browser ends (out of memory, say), sends no event at all, by a Web Lock the worker holds
// for as long as it lives (serve() takes it and says its name, { alive: name }): every LIVENESS_MS while a worker has
// requests pending, the set looks whether its lock is still held (navigator.locks.query(), which waits on nothing:
// WebKit holds back other locks behind a request that waits), and a worker whose lock is gone has stopped. A worker
// that runs but never answers (an op that never ends) is alive: only close() ends it. Where the engine has no Web
// Locks (a page that is not a secure context), a worker that closes itself is not found. In node an idle worker does
// not keep the process alive (it is unref'ed while it has nothing to do), and close() ends them all.

import { nodeModule } from '../env.mjs';

/** How often a browser's set looks whether its busy workers still live (milliseconds; see Failure). */
export const LIVENESS_MS = 250;
/** The longest a worker's first op waits for its Web Lock (milliseconds): one is granted at once, as a rule. */
const LOCK_WAIT_MS = 2000;
/** What a worker that stopped without an event is said to have done. */
const VANISHED = 'it stopped without an error event (it closed itself, or the browser ended it)';

const ERROR_CLASSES = { TypeError, RangeError };

/** The errors of a worker that stopped or of a closed set, as opposed to an op's own (workerFailed). */
const failures = new WeakSet();
const failure = (message) => {
  const error = new Error(message);
  failures.add(error);
  return error;
};

/** Whether a request's error says that its worker stopped or the set closed, rather than what its op threw. */
export const workerFailed = (error) => failures.has(error);

/** An error posted by a worker, as the class and message it was thrown with. */
function revive({ name, message }) {
  const Class = ERROR_CLASSES[name] ?? Error;
  const error = new Class(message);
  if (!(name in ERROR_CLASSES) && name !== 'Error') error.name = name;
  return error;
}

/**
 * A node Worker or a Web Worker, behind one interface: post, terminate, hold (ref while busy), lock() (the name of the
 * Web Lock it holds while it lives, once it has said it, else null), and its events.
 */
function adapt(worker, { message, failure }) {
  if (typeof worker.on === 'function') {  // node's worker_threads
    worker.on('message', message);
    worker.on('error', (error) => failure(`an uncaught ${error?.name ?? 'error'}: ${error?.message ?? error}`));
    worker.on('messageerror', (error) => failure(`a message it sent could not be read (${error?.message ?? error})`));
    worker.on('exit', (code) => failure(`it exited with code ${code}`));
    return {
      post: (data, transfer) => worker.postMessage(data, transfer),
      terminate: () => worker.terminate(),
      hold: (busy) => (busy ? worker.ref() : worker.unref()),
      lock: () => null,
    };
  }
  let lock = null;
  worker.addEventListener('message', ({ data }) => {
    if (typeof data?.alive === 'string' && Object.keys(data).length === 1) lock = data.alive;  // (serve()'s Web Lock)
    else message(data);
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault?.();
    failure(event.message ? `an uncaught error: ${event.message}` : 'its script failed to load or run');
  });
  worker.addEventListener('messageerror', () => failure('a message it sent could not be read'));
  return {
    post: (data, transfer) => worker.postMessage(data, transfer),
    terminate: () => worker.terminate(),
    hold: () => {},
    lock: () => lock,
  };
}

/**
 * Starts `count` workers (start(): a new Worker of either kind), sends each the op `first` ({ op, args }: loading the
 * module, say; also to a worker that replaces one that died) and resolves when all of them have run it, to the set:
 *   request(index, op, args, transfer, onReport)
 *                                       → a promise of the op's value on worker `index`; onReport(value) is called
 *                                         with each report the op sends before it answers
 *   expect(index)                       → { id, answer, settle(value) }: a request whose work goes to worker
 *                                         `index` another way (shared memory: exchange.mjs), pending as others are
 *   idle(index)                         → whether worker `index` has nothing pending
 *   idlest(skip)                        → the first worker with the fewest pending requests (not in `skip`): calls
 *                                         one after another go to the same worker, which stays warm
 *   size                                → the number of workers
 *   kill(index)                         → ends worker `index` as if it had died (what a crash does; for tests)
 *   generation(index)                   → how many workers have been started at `index` (1, then 2 once replaced…)
 *   close()                             → ends every worker; pending and later requests reject; resolves once they
 *                                         have all ended (again: the same promise)
 *   closed                              → why the set is closed (a message), or null
 * Rejects (after ending them) if any worker fails to run `first`.
 */
export async function startWorkers({ count, start, first }) {
  const slots = new Array(count);
  const generations = new Array(count).fill(0);  // how many workers have been started at each index
  let closed = null;  // why the set is closed, once it is
  let closing = null;  // the promise that every worker has ended, once the set is closed
  let nextId = 1;

  /** Starts worker `index` and resolves once it has run the first op (rejects if it fails to). */
  async function spawn(index) {
    const slot = { index, pending: new Map(), loaded: false, gone: false };
    generations[index] += 1;
    slot.port = adapt(start(), {
      message: (data) => answer(slot, data),
      failure: (reason) => died(slot, reason),
    });
    slots[index] = slot;
    const { op, args } = first;
    await send(slot, op, args);
    slot.loaded = true;
  }

  /** While a worker with a Web Lock has requests pending: each LIVENESS_MS, those whose lock is gone have stopped. */
  let watching = 0;
  function watch() {
    if (watching || closed || !globalThis.navigator?.locks?.query) return;
    watching = setInterval(async () => {
      const waiting = slots.filter((slot) => slot && !slot.gone && slot.pending.size > 0);
      if (waiting.length === 0 || closed) {
        clearInterval(watching);
        watching = 0;
        return;
      }
      const busy = waiting.filter((slot) => slot.port.lock());
      if (busy.length === 0) return;
      let held;
      try {
        held = new Set((await navigator.locks.query()).held.map((lock) => lock.name));
      } catch {
        return;
      }
      for (const slot of busy) if (!held.has(slot.port.lock())) died(slot, VANISHED);
    }, LIVENESS_MS);
  }

  /** A request pending on `slot` under a new id: { id, promise } (settled by its answer, or the worker's end). */
  function pend(slot, onReport) {
    const id = nextId++;
    const promise = new Promise((resolve, reject) => slot.pending.set(id, { resolve, reject, onReport }));
    slot.port.hold(true);
    watch();
    return { id, promise };
  }

  /** Forgets request `id` of `slot` (answered, or never sent). */
  function forget(slot, id) {
    slot.pending.delete(id);
    if (slot.pending.size === 0) slot.port.hold(false);
  }

  function send(slot, op, args, transfer = [], onReport = undefined) {
    const { id, promise } = pend(slot, onReport);
    try {
      slot.port.post({ id, op, args }, transfer);
    } catch (error) {  // a value that cannot be cloned: this request's fault, not the worker's
      const { reject } = slot.pending.get(id);
      forget(slot, id);
      reject(error);
    }
    return promise;
  }

  function answer(slot, data) {
    const { id, value, error, fatal } = data;
    const request = slot.pending.get(id);
    if (!request || slot.gone) return;
    if ('report' in data) {
      request.onReport?.(data.report);
      return;
    }
    forget(slot, id);
    if (error) request.reject(revive(error));
    else request.resolve(value);
    if (fatal) died(slot, `its module instance stopped (${error.message})`);
  }

  /** Ends a worker, rejecting what it had pending with `error`; resolves once it has stopped (node says when). */
  function end(slot, error) {
    if (slot.gone) return slot.ended;
    slot.gone = true;
    for (const { reject } of slot.pending.values()) reject(error);
    slot.pending.clear();
    slot.ended = Promise.resolve(slot.port.terminate()).catch(() => {});
    return slot.ended;
  }

  function died(slot, reason) {
    if (slot.gone) return;
    // a worker that dies before it has run the first op is not replaced: its spawn() rejects instead
    const replace = slot.loaded && !closed;
    end(slot, failure(`seqorder pool: worker ${slot.index} stopped: ${reason}. The calls it was running failed${replace ? '; a new worker is starting in its place' : ''}.`));
    if (!replace) return;
    spawn(slot.index).catch((error) => {
      if (!closed) close(`worker ${slot.index} stopped (${reason}) and could not be replaced (${error.message})`);
    });
  }

  /** Closes the set (once: a later close() gets the same promise); resolves once every worker has ended. */
  function close(reason = 'it was closed') {
    if (closing) return closing;
    closed = `seqorder pool: the pool is closed (${reason}): load a new one with loadSeqorderPool()`;
    const error = failure(`seqorder pool: the pool was closed (${reason}) with this call pending`);
    closing = Promise.all(slots.filter(Boolean).map((slot) => end(slot, error))).then(() => {});
    return closing;
  }

  try {
    await Promise.all(Array.from({ length: count }, (_, index) => spawn(index)));
  } catch (error) {
    await close('a worker failed to start');
    throw error;
  }

  return {
    size: count,
    request(index, op, args, transfer, onReport) {
      if (closed) return Promise.reject(failure(closed));
      return send(slots[index], op, args, transfer, onReport);
    },
    /**
     * A request whose work is handed to worker `index` some other way than a message (exchange.mjs: shared memory):
     * { id, answer, settle(value) }. It is pending like any other (idle() is false, the worker is held, its end or the
     * set's close rejects `answer`); the worker answers `id` only if the work fails (serve()'s background), and the
     * caller calls settle(value) when it learns the work is done, which resolves `answer` (once: after an answer, or
     * after the worker's end, it does nothing).
     */
    expect(index) {
      if (closed) return { id: 0, answer: Promise.reject(failure(closed)), settle: () => {} };
      const slot = slots[index];
      const { id, promise } = pend(slot);
      const settle = (value) => {
        const request = slot.pending.get(id);
        if (!request || slot.gone) return;
        forget(slot, id);
        request.resolve(value);
      };
      return { id, answer: promise, settle };
    },
    /** Whether worker `index` has nothing pending (what it is sent next runs at once). */
    idle: (index) => slots[index].pending.size === 0 && !slots[index].gone,
    idlest(skip = new Set()) {
      let best = -1;
      for (let index = 0; index < count; index++)
        if (!skip.has(index) && (best < 0 || slots[index].pending.size < slots[best].pending.size)) best = index;
      return best;
    },
    kill(index) {
      died(slots[index], 'it was killed');
    },
    /** How many workers have been started at `index`: it grows when a worker that died is replaced. */
    generation: (index) => generations[index],
    close: () => close(),
    /** Why the set is closed (the message its requests reject with), or null while it is open. */
    get closed() {
      return closed;
    },
  };
}

/**
 * The worker's end: answers the protocol's messages with `ops` ({ name: (args, report) => ({ value, transfer }) }), one
 * message at a time; report(value, transfer) sends news of the op's progress to the caller's onReport. `fatal()`
 * says, after an op has thrown, whether this worker can still run ops. Resolves to { background(id, work) }, for work
 * that came another way than a message (the set's expect()).
 */
export async function serve(ops, { fatal = () => false } = {}) {
  // node: the parent port of worker_threads; browsers: the worker's global scope
  const port = typeof self === 'object' && typeof self.postMessage === 'function'
    ? self
    : (await nodeModule('worker_threads')).parentPort;
  if (!port) throw new Error('seqorder pool: a worker script runs in a worker the pool starts, not on the main thread');
  // A browser's worker: a Web Lock held for as long as it lives, so that its set learns when it stops (see Failure).
  // Its name goes out before the answer to the first message (the first op waits for it, up to LOCK_WAIT_MS), so the
  // set knows it before it asks anything else.
  let queue = Promise.resolve();
  const locks = port === globalThis.self ? globalThis.self.navigator?.locks : undefined;
  if (locks) {
    const name = `seqorder-worker-${globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random()}`}`;
    queue = new Promise((held) => {
      setTimeout(held, LOCK_WAIT_MS);
      locks.request(name, () => {
        port.postMessage({ alive: name });
        held();
        return new Promise(() => {});
      }).catch(held);
    });
  }
  const failed = (id, error) => {
    const name = typeof error?.name === 'string' ? error.name : 'Error';
    port.postMessage({ id, error: { name, message: String(error?.message ?? error) }, fatal: fatal() });
  };
  const run = async ({ id, op, args }) => {
    try {
      if (!Object.hasOwn(ops, op)) throw new Error(`seqorder pool worker: no op '${op}'`);
      const report = (value, transfer = []) => port.postMessage({ id, report: value }, transfer);
      const { value, transfer = [] } = await ops[op](args, report);
      port.postMessage({ id, value }, transfer);
    } catch (error) {
      failed(id, error);
    }
  };
  const receive = (data) => { queue = queue.then(() => run(data)); };
  if (typeof port.on === 'function') port.on('message', receive);
  else port.addEventListener('message', ({ data }) => receive(data));
  return {
    /**
     * Runs work() in turn with the ops (after those received before), for a request that came some other way than a
     * message (the set's expect()): nothing is posted if it succeeds (it tells the caller itself); what it throws is
     * posted as the answer to request `id`, as an op's error is.
     */
    background(id, work) {
      queue = queue.then(async () => {
        try {
          await work();
        } catch (error) {
          failed(id, error);
        }
      });
    },
  };
}
