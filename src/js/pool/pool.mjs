// The pool, loadSeqorderPool(): attention spread over several instances of the module, each in its own worker (Web
// Workers in browsers, worker_threads in node), with no SharedArrayBuffer needed; and models trained in them
// (model.mjs). Both entry points that export it call it here: seqorder/pool (index.mjs), which names the pool's worker
// script for bundlers, and seqorder (../seqorder.mjs), whose pool finds it beside its own files.
//
// A call is read and checked on the calling thread exactly as so.attention reads and checks it (../api.mjs's
// attentionPlanner, over an instance of the module kept here for that alone, made by the first call when this thread
// has made an instance of the module before, so that a pool that only trains models holds one WebAssembly memory a
// worker and none here): the same errors, before any worker is involved. The core's plan says how the work may be
// split (split.mjs), in proportion to how fast each worker has been (pace.mjs). Each worker gets its slabs of q, k
// and v (copied once, or moved with `transfer: true`), runs so.attention on them and moves its results back; the
// parts are laid in place, so the results are the bits one thread computes. The workers and the messages they
// answer: protocol.mjs; what a worker runs: worker.mjs.
import { attentionPlanner, makeApi, version } from '../api.mjs';
import { DTYPES, checkStillThere, optional, readBoolean, readNumber, readOptions } from '../arguments.mjs';
import { isNode, nodeModule } from '../env.mjs';
import { docsUrl } from '../docs-url.mjs';
import { compileModelModule, compileSeqorder, instantiateCore, instantiateCoreNow, knownModule } from '../load.mjs';
import { modelMaker } from './model.mjs';
import { canExchange, exchanges } from './exchange.mjs';
import { startWorkers, workerFailed } from './protocol.mjs';
import { paces, timer } from './pace.mjs';
import { callPlaces, callsOf, cutRows, elementsOf, runWork } from './split.mjs';
import { readWorkerUrl, workerStarter } from './start.mjs';

const MAX_WORKERS = 256;
/**
 * How long the calling thread, its share computed, spins on a run handed to a worker before it waits without blocking
 * (milliseconds): the paces end the runs together, so the worker's is about to end, and a thread that sleeps is woken
 * a tenth of a millisecond or more later (a virtual machine's idle core).
 */
const SPIN_MS = 1;

/** Each pool's worker set (protocol.mjs), for tests: workersOf(pool).kill(i) ends a worker as a crash would. */
const workerSets = new WeakMap();
export const workersOf = (pool) => workerSets.get(pool);
const product = (shape) => shape.reduce((a, b) => a * b, 1);

/** The cores this machine offers: what `workers` defaults to. */
async function availableCores() {
  if (isNode) {
    const os = await nodeModule('os');
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return globalThis.navigator?.hardwareConcurrency || 1;
}

/**
 * ArrayBuffers back from the workers (the slabs they read, the parts they wrote), kept for later calls' slabs and
 * parts: fresh memory costs page faults and zero-filling, several times the copy itself. At most SPARE_BYTES are kept.
 * take(byteLength, exact) → a kept buffer, or a new one, of byteLength rounded up to its size class (sizeClass), so
 * that runs whose sizes move a little from call to call (the cuts follow the workers' paces) find one; of byteLength
 * itself when `exact` (a buffer the caller gets). keep(buffers) keeps them.
 */
const SPARE_BYTES = 32 * 2 ** 20;
function spareBuffers() {
  const bySize = new Map();
  let held = 0;
  return {
    take(byteLength, exact = false) {
      const size = exact ? byteLength : sizeClass(byteLength);
      const buffer = bySize.get(size)?.pop();
      if (!buffer) return new ArrayBuffer(size);
      held -= size;
      return buffer;
    },
    keep(buffers) {
      for (const buffer of buffers) {
        if (!(buffer instanceof ArrayBuffer) || buffer.byteLength === 0 || held + buffer.byteLength > SPARE_BYTES) continue;
        if (!bySize.has(buffer.byteLength)) bySize.set(buffer.byteLength, []);
        bySize.get(buffer.byteLength).push(buffer);
        held += buffer.byteLength;
      }
    },
  };
}

/** n rounded up to a multiple of a quarter of the power of two at or below it (at most 25% more): 5 → 5, 1000 → 1024. */
export function sizeClass(n) {
  if (n <= 4) return n;
  const quarter = 2 ** (Math.floor(Math.log2(n)) - 2);
  return Math.ceil(n / quarter) * quarter;
}

/**
 * Hands out the slabs of the inputs that runs of work need: take(record, start, end, run) → { data, moved } where
 * data holds elements start … end − 1 of the tensor and `moved` lists the buffers to transfer with the run. Each slab
 * is a copy of exactly those elements in a spare buffer, transferred (one copy in all), made now: the workers compute
 * on the values the inputs held when the call was made (a SharedArrayBuffer's too). Or, where `transfer` allows it, a
 * view of the caller's own buffer, which the first run that asks for it takes (no copy; the caller's array is
 * detached). The buffer `keep` (the caller's `out`) is never moved.
 */
function slabs(spares, transfer, keep) {
  const owner = new Map();  // caller's buffer → the run it is moved with
  return (record, start, end, run) => {
    const view = elementsOf(record, start, end);
    const { buffer } = view;
    const shared = typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer;
    if (transfer && !shared && buffer !== keep && (owner.get(buffer) ?? run) === run) {
      owner.set(buffer, run);
      return { data: view, moved: [buffer] };
    }
    const data = new view.constructor(spares.take(view.byteLength), 0, end - start);
    data.set(view);
    return { data, moved: [data.buffer] };
  };
}

/**
 * The message of one run of rows [first, end) (cutRows), the `run`th of the call: its attention calls (callsOf's
 * `calls`) as arguments on views of its slabs (take: slabs()'s; one buffer per slab crosses to the worker), and the
 * buffers to move. `whole`: the run is the call's only part, so its output is the caller's result (inOnePart).
 */
function message(read, [first, end], calls, run, take, spares, whole) {
  const { plan } = read;
  const { width: D, valueWidth: Dv, keys: Tk } = plan;
  const Class = DTYPES[plan.dtype];
  const items = [calls[0].item, calls.at(-1).item + calls.at(-1).items];  // the batch items the run touches
  const q = take(read.q, first * D, end * D, run);
  const k = take(read.k, items[0] * Tk * D, items[1] * Tk * D, run);
  const v = take(read.v, items[0] * Tk * Dv, items[1] * Tk * Dv, run);
  const tensor = (slab, offset, shape) => ({ data: slab.subarray(offset, offset + product(shape)), shape, dtype: plan.dtype });
  let offset = 0;  // rows of the run before this call
  const outs = [];  // where each call's output goes: a spare buffer, moved there and back
  const args = calls.map(({ item, items: n, row, rows }) => {
    const at = (item - items[0]) * Tk;
    const out = new Class(spares.take(n * rows * Dv * Class.BYTES_PER_ELEMENT, whole), 0, n * rows * Dv);
    outs.push(out.buffer);
    const call = {
      q: tensor(q.data, offset * D, [n, rows, D]),
      k: tensor(k.data, at * D, [n, Tk, D]),
      v: tensor(v.data, at * Dv, [n, Tk, Dv]),
      options: plan.causal ? { causal: true, queryStart: plan.queryStart + row, steps: plan.steps, out } : { steps: plan.steps, out },
    };
    offset += n * rows;
    return call;
  });
  return { calls, args, moved: [...new Set([...q.moved, ...k.moved, ...v.moved, ...outs])] };
}

/**
 * What one call sends its workers: for each of their runs of rows (cutRows), handed to worker theirs[j] through its
 * exchange where it can go that way (exchange.mjs: a call in several parts, without steps), else its message.
 * Every slab is taken before any message is posted, so a buffer moved with one run has been copied for the others.
 * → [{ calls, handed } or { calls, args, moved }]
 */
function send(read, runs, theirs, parts, spares, transfer, exchange) {
  const take = slabs(spares, transfer, read.out?.buffer);
  const byExchange = exchange && parts > 1 && !read.plan.steps;  // (only a pool whose calling thread computes has them: it never moves the inputs)
  return runs.map(([first, end], run) => {
    const calls = callsOf(read.plan, first, end);
    const handed = byExchange ? exchange.hand(theirs[run], read, calls) : null;
    return handed ? { calls, handed } : message(read, [first, end], calls, run, take, spares, parts === 1 && calls.length === 1);
  });
}

/**
 * The calling thread's run of rows [first, end) (callingThread): its attention calls (callsOf) on views of the caller's
 * inputs, on this thread's instance of the module (`so`), each output written in place in `output` (the call's whole
 * output array, or null: so.attention's own) → what a worker answers, { results, inputs: [] }, and `inPlace`.
 */
function runHere(so, read, plan, [first, end], output) {
  const view = (record, { at, size, shape }) => ({ data: elementsOf(record, at, at + size), shape, dtype: plan.dtype });
  const results = callsOf(plan, first, end).map((call) => {
    const places = callPlaces(plan, call);
    const out = output?.subarray(places.out.at, places.out.at + places.out.size);
    const options = plan.causal ? { causal: true, queryStart: plan.queryStart + call.row, steps: plan.steps, out } : { steps: plan.steps, out };
    return so.attention(view(read.q, places.q), view(read.k, places.k), view(read.v, places.v), options);
  });
  return { results, inputs: [], inPlace: output !== null };
}

/** attention's results (scores, scaled, weights, output, or the output alone) as a list of tensors. */
const resultList = (result, steps) => (steps ? [result.scores, result.scaled, result.weights, result.output] : [result]);

/** Whether a call went out in one part (one run of one call): its results are then the worker's own. */
const inOnePart = (sent) => sent.length === 1 && sent[0].calls.length === 1;

/**
 * The arrays the parts of a call sent in several are laid into (but the caller's `out`), made while the workers run:
 * their pages are touched now (`fill`), rather than on the way back, when the caller waits (not where the calling
 * thread computes a share: it writes its output in place while the workers run). null for a call in one part.
 */
function resultArrays(plan, out, sent, fill) {
  if (inOnePart(sent)) return null;
  const Class = DTYPES[plan.dtype];
  return plan.results.map((shape, r) => {
    if (out && r === plan.results.length - 1) return null;
    const array = new Class(product(shape));
    return fill ? array.fill(0) : array;
  });
}

/**
 * The typed array the calling thread writes its output into, in a run of `calls` attention calls: the output's array of
 * `arrays` (resultArrays': the pool's own), or the caller's `out` when the run is one call, which so.attention's
 * contract then covers (out written only once the call has succeeded, and after every input is read, even an input
 * that shares out's buffer). null otherwise (so.attention's own arrays, laid into out once every part has come): a
 * call that fails leaves out as it was.
 */
function outputArray(read, arrays, calls) {
  const { out } = read;
  if (!out) return arrays?.at(-1) ?? null;
  return calls === 1 ? new DTYPES[read.plan.dtype](out.buffer, out.byteOffset, out.length) : null;
}

/**
 * The call's results from the workers' answers (answers[run].results[call], in the order of `sent`): each part laid at
 * its place in `arrays` (resultArrays'), the output into `out` if given (but an answer's output written in place,
 * `inPlace`: the calling thread's); the buffers that come back are kept as spares. A call in one part is returned as
 * the worker made it (nothing copied but into `out`).
 */
function assemble(plan, out, sent, answers, arrays, spares) {
  const Class = DTYPES[plan.dtype];
  const outputIndex = plan.results.length - 1;
  const parts = answers.map((answer) => answer.results);
  const whole = inOnePart(sent) ? resultList(parts[0][0], plan.steps) : null;
  if (out) checkStillThere(out);
  const tensors = plan.results.map((shape, r) => {
    if (r === outputIndex && out) {
      const data = new Class(out.buffer, out.byteOffset, out.length);
      if (whole && whole[r].data.buffer !== data.buffer) data.set(whole[r].data);
      return { data, shape, dtype: plan.dtype, view: out.view };
    }
    return { data: whole ? whole[r].data : arrays[r], shape, dtype: plan.dtype };
  });
  if (!whole) {
    sent.forEach(({ calls }, run) => calls.forEach(({ item, row }, c) => {
      resultList(parts[run][c], plan.steps).forEach((part, r) => {
        if (r === outputIndex && answers[run].inPlace) return;
        const columns = plan.results[r].at(-1);
        tensors[r].data.set(part.data, (item * plan.queries + row) * columns);
      });
    }));
  }
  // what the workers read, and the parts now copied into place (not a part handed to the caller as the result)
  const handedOut = new Set(tensors.map((t) => t.data.buffer));
  spares.keep(answers.flatMap((answer) => [...answer.inputs, ...answer.results.flatMap((result) => resultList(result, plan.steps))
    .map((t) => t.data.buffer).filter((buffer) => !handedOut.has(buffer))]));
  const results = tensors.map(({ data, shape, dtype, view }) => ({ data: view ?? data, shape, dtype }));
  if (!plan.steps) return results[0];
  const [scores, scaled, weights, output] = results;
  return { scores, scaled, weights, output };
}

/** What a bundled app that found no pool files is told (the files are named for bundlers by seqorder/pool alone). */
const BUNDLED = 'In an app built by a bundler (Vite, webpack, ...), import loadSeqorderPool from \'seqorder/pool\' rather than '
  + 'from \'seqorder\': bundlers emit the pool\'s worker script for that entry point only.';

/**
 * What options.sharedMemory: true is told: the pool has one way of moving the work, copies (its workers share no
 * memory). The Error is the one a pool that could not share memory threw, so that a caller's handling of it still works.
 */
const NO_SHARED_MEMORY = 'seqorder pool: options.sharedMemory: true, but the workers cannot share memory: the pool copies '
  + `each worker's part of a call to it (sharing memory did not make it faster); leave sharedMemory out, see ${docsUrl('pool.md', 'one-way-of-moving-the-work-copies')}`;

/**
 * Loads a pool of `workers` instances of the module (default: the cores available), each in a worker (made by its
 * first attention call), plus one on this thread that only checks calls (made by the first call when this thread made
 * an instance of the module before). simd, wasmUrl, wasmBinary, modelWasmUrl, modelWasmBinary: as loadSeqorder's
 * (each module is fetched and compiled once a page, here or by an earlier loadSeqorder: load.mjs's compiledFrom; the
 * model module when the first model is made; the compiled modules are sent to the workers). sharedMemory: kept for
 * the callers that name it; false or absent: the pool (which copies); true: the Error NO_SHARED_MEMORY. workerUrl:
 * where the worker script is, when not beside this file (start.mjs).
 * `packaged`, from seqorder/pool (index.mjs): { modelUrl() (the default build's model module), startWorker() (a new
 * Web Worker of the packaged script) }, each written as bundlers find it. Without them (the pool reached through
 * seqorder), the model module is looked for beside the main module and the worker script beside this file, which is
 * where they are wherever the package's folder is served as it is (node, a static folder, an import map); a bundled
 * app is told to import seqorder/pool.
 */
export async function loadSeqorderPool(options, packaged = {}) {
  const { workers: asked, callingThread: calling, sharedMemory: sharing, workerUrl, ...load } = readOptions('options', options,
    ['workers', 'callingThread', 'sharedMemory', 'workerUrl', 'simd', 'wasmUrl', 'wasmBinary', 'modelWasmUrl', 'modelWasmBinary']);
  if (asked !== undefined) {
    readNumber('options.workers', asked);
    if (!Number.isInteger(asked) || asked < 1 || asked > MAX_WORKERS)
      throw new RangeError(`options.workers must be an integer between 1 and ${MAX_WORKERS}, got ${asked}`);
  }
  const callingThread = optional(readBoolean)('options.callingThread', calling) === true;
  optional(readBoolean)('options.sharedMemory', sharing);
  if (sharing) throw new Error(NO_SHARED_MEMORY);
  const script = await readWorkerUrl(workerUrl);
  const count = asked ?? Math.max(1, Math.min(MAX_WORKERS, await availableCores()) - (callingThread ? 1 : 0));
  const { compiled, url, model } = await compileSeqorder(load);
  // This thread's instance of the module, which checks attention's calls (plan) and, with callingThread, computes a
  // share of each (so, timed by time): made now when none of this module was made on this thread (it then says the
  // module's build, and a module that does not instantiate fails here), else by the first call to check.
  const onThisThread = (core) => ({ plan: attentionPlanner(core), so: callingThread ? makeApi(core) : null, time: callingThread ? timer() : null });
  let here = knownModule(compiled) ? undefined : onThisThread(await instantiateCore(compiled, url));
  const { build, maxTensorBytes } = knownModule(compiled);
  let modelCompiled;  // the model module, fetched and compiled by the first model (again after a failure)
  const compiledModel = () => {
    modelCompiled ??= compileModelModule(model, packaged.modelUrl?.());
    return modelCompiled.catch((error) => {
      modelCompiled = undefined;
      throw new Error(error.message, { cause: error.cause });
    });
  };
  const spares = spareBuffers();
  const pace = paces(count + 1);  // the workers', and the calling thread's (index count)
  const starter = await workerStarter(script, packaged.startWorker, BUNDLED);
  let workers;
  try {
    workers = await startWorkers({
      count,
      start: starter.start,
      first: { op: 'load', args: { module: compiled, url: url?.href, build } },
    });
  } catch (error) {
    starter.release();
    if (!workerFailed(error)) throw error;
    const reason = /^seqorder pool: (.*?)\. The calls/.exec(error.message)?.[1] ?? error.message;
    throw new Error(`seqorder pool: its workers could not start from ${starter.script} (${reason}). ${starter.fix}`, { cause: error });
  }
  // Runs go to the workers through their exchanges where the calling thread computes a share and memory can be shared
  // (exchange.mjs); by message otherwise (bench/notes/pool.md, "Runs through shared memory": a pool whose calling
  // thread only waits gained nothing by it).
  const exchange = callingThread && canExchange() ? exchanges(workers) : null;

  /**
   * so.attention on the pool: a promise of what so.attention returns (the same bits), rejected with the error
   * so.attention throws. transfer: true lets the pool move the buffers of q.data, k.data and v.data to its workers
   * instead of copying them (the caller's arrays are then detached), but with callingThread, which reads them.
   * With callingThread the first run is this thread's: its slabs are not copied, and it is computed once the workers'
   * messages are posted (a call too small to split is computed here alone, with no message).
   */
  async function attention(q, k, v, options) {
    here ??= onThisThread(instantiateCoreNow(compiled, url));
    const read = here.plan(q, k, v, options, { transfer: optional(readBoolean) });
    if (workers.closed) throw new Error(workers.closed);
    const started = performance.now();
    const picked = new Set();  // the workers, the idlest first (in the order added)
    while (picked.size < workers.size) picked.add(workers.idlest(picked));
    const order = [...(callingThread ? [count] : []), ...picked];  // run j goes to order[j]; count: this thread
    const runs = cutRows(read.plan, order.map(pace.of));
    const mine = callingThread ? runs[0] : undefined;
    const theirs = order.slice(callingThread ? 1 : 0);
    const sent = send(read, callingThread ? runs.slice(1) : runs, theirs, runs.length, spares, read.extra.transfer === true && !callingThread, exchange);
    const parts = mine ? [{ calls: callsOf(read.plan, ...mine) }, ...sent] : sent;
    const arrays = resultArrays(read.plan, read.out, parts, !mine);
    // The messages go now, the runs handed through an exchange already have; a run handed is waited for at once, but
    // where this thread computes a share, once it has (spinning a little first: its worker is about to end).
    const asked = sent.map((run, j) => (run.handed ? null : workers.request(theirs[j], 'attention', { calls: run.args }, run.moved)));
    const answer = (run, j, spinMs) => asked[j] ?? run.handed.wait(spinMs);
    try {
      let own;  // this thread's answer; its time counts from the call's start, which its slabs for the workers delayed
      if (mine) {
        try {
          const { value, took } = here.time(() => runHere(here.so, read, read.plan, mine, outputArray(read, arrays, parts[0].calls.length)));
          own = { ...value, took: took === null ? null : performance.now() - started };
        } catch (error) {
          await Promise.allSettled(sent.map((run, j) => answer(run, j, 0)));  // the workers' answers come back before the call fails
          throw error;
        }
      }
      const answers = Promise.all(sent.map((run, j) => answer(run, j, mine ? SPIN_MS : 0)));
      // With this thread computing, each run's time is its time on the call's path, from the call's start to its end: a
      // worker's includes its message's way there and its wake, which this thread's share does not wait for.
      const sinceStart = (a) => ({ ...a, took: a.took === null ? null : a.ended - (performance.timeOrigin + started) });
      const answered = own ? [own, ...(await answers).map(sinceStart)] : await answers;
      pace.learn(order.slice(0, runs.length), runs.map(([first, end]) => runWork(read.plan, first, end)), answered.map((a) => a.took));
      return assemble(read.plan, read.out, parts, answered, arrays, spares);
    } finally {
      for (const run of sent) run.handed?.release();
    }
  }

  const models = modelMaker(workers, maxTensorBytes, compiledModel);
  const pool = Object.freeze({
    version,
    build,
    workers: count,
    /** Whether this thread computes a share of each attention call too (options.callingThread). */
    callingThread,
    /** Always false: the workers share no memory (NO_SHARED_MEMORY); kept for the callers that read it. */
    sharedMemory: false,
    attention,
    /** so.createModel in one of the workers: a promise of a handle whose methods are the model's, as promises. */
    createModel: models.createModel,
    /** so.loadModel in one of the workers: a promise of such a handle. */
    loadModel: models.loadModel,
    /** Ends the workers: calls still pending reject, and so do later ones. Resolves once every worker has ended. */
    close: () => workers.close().finally(starter.release),
  });
  workerSets.set(pool, workers);
  return pool;
}
