// One instance's WebAssembly heap, as each API call uses it: copy the inputs in, run one core call, copy the results
// out into JS-owned arrays, free every block, also on errors. The heap's views die when it grows, so nothing here
// keeps a view across a call into the module.
import { DTYPES, bytesOf, checkStillThere } from './arguments.mjs';

const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/**
 * Checks a tensor read by readTensor before it is copied into the heap: its size against the module's limit (a
 * RangeError), and that its buffer still holds what was read (a TypeError). Returns its size in bytes.
 */
export function checkTensor(record, maxTensorBytes) {
  const { data } = record;
  const bytes = data.length * DTYPES[data.dtype].BYTES_PER_ELEMENT;
  if (bytes > maxTensorBytes)
    throw new RangeError(`${record.name} is too large: ${mib(bytes)}, a tensor may hold at most ${mib(maxTensorBytes)}`);
  checkStillThere(data);
  return bytes;
}

/**
 * Returns run(work): runs work(call) with a per-call heap session:
 *   call.tensor(record)      copies a tensor read by readTensor into the heap: the binding's TensorArg
 *   call.core(fn, args)      runs a binding function; its { error } becomes a RangeError, its results (if any) are
 *                            owned here
 *   call.outcome(fn, args)   the same for a binding function that returns no tensors: its outcome object
 *   call.output(result, out) copies a result out (into the `out` record, or a new array): a { data, shape, dtype }
 *   call.outputAt(result, out, offset)  copies a result into the `out` record from element `offset` on, and frees its
 *                            block at once (so that the next piece of a result computed in pieces reuses that memory)
 *   call.number(result)      a scalar result (shape []) as a number
 * If the module traps (a WebAssembly RuntimeError: a bug, never an argument's fault), this instance is marked unusable
 * and every later call says so: a trapped module's stack and heap are not trusted again.
 */
export function heapRunner(core) {
  const maxTensorBytes = core.maxTensorBytes();
  let stopped = null; // the message every call throws once the module has trapped

  function run(work) {
    if (stopped) throw new Error(stopped);
    const blocks = [];
    const alloc = (name, bytes) => {
      const address = core._malloc(Math.max(bytes, 8));
      if (!address) throw new RangeError(`${name}: out of memory, the WebAssembly heap cannot hold ${mib(bytes)} more`);
      blocks.push(address);
      return address;
    };
    const call = {
      tensor(record) {
        const { data } = record;
        const bytes = checkTensor(record, maxTensorBytes);
        const address = alloc(record.name, bytes);
        if (bytes > 0) core.HEAPU8.set(bytesOf(data), address);
        return { address, count: data.length, dtype: record.dtype, shape: record.shape };
      },
      outcome(fn, args) {
        const outcome = fn(args);
        if (outcome.error !== undefined) throw new RangeError(outcome.error);
        return outcome;
      },
      core(fn, args) {
        const { results = [] } = call.outcome(fn, args);
        for (const result of results) blocks.push(result.address);
        return results;
      },
      output({ address, dtype, shape }, out) {
        const Class = DTYPES[dtype];
        const count = shape.reduce((a, b) => a * b, 1);
        const view = new Class(core.HEAPU8.buffer, address, count);
        let data;
        if (out === undefined) {
          data = new Class(view); // one pass, no zero-filling first
        } else {
          checkStillThere(out);
          bytesOf(out).set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
          data = out.view;
        }
        return { data, shape, dtype };
      },
      outputAt({ address, dtype, shape }, out, offset) {
        const bytes = shape.reduce((a, b) => a * b, 1) * DTYPES[dtype].BYTES_PER_ELEMENT;
        checkStillThere(out);
        bytesOf(out).set(new Uint8Array(core.HEAPU8.buffer, address, bytes), offset * DTYPES[dtype].BYTES_PER_ELEMENT);
        blocks.splice(blocks.lastIndexOf(address), 1);
        core._free(address);
      },
      number({ address, dtype }) {
        return new DTYPES[dtype](core.HEAPU8.buffer, address, 1)[0];
      },
    };
    try {
      return work(call);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        stopped = `seqorder: this module instance stopped after an internal error (${error.message}) and cannot be ` +
          'used any more; load a new one with loadSeqorder(). Please report this as a bug.';
        throw new Error(stopped, { cause: error });
      }
      throw error;
    } finally {
      if (!stopped) for (const address of blocks) core._free(address);
    }
  }

  /** Heap diagnostics: bytes held by malloc now, and the heap's size. */
  function memoryStats() {
    if (stopped) throw new Error(stopped);
    return { allocatedBytes: core.allocatedBytes(), heapBytes: core.HEAPU8.buffer.byteLength };
  }

  return { run, memoryStats };
}
