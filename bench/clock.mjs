// The clock of the node benchmarks whose contenders run on the calling thread (bench/run.mjs, ab-training.mjs,
// attention-kernel.mjs, ab.mjs without workers, model-speed.mjs, simd-peak.mjs, simd-loads.mjs): the CPU time of that
// thread. The process's CPU time (process.cpuUsage) also counts V8's own threads, which compile, mark and sweep for
// whatever the process holds: in `npm run bench`, whose heap holds tfjs's, onnxruntime-web's and plain JS's data, they
// ran 20-45 ms during each 0.4 s sample of the lab model's steps (2-9 ms in a process that holds only the model), while
// the thread stepping it ran as fast as in that lone process.
//
// node 20 has no call for a thread's CPU time, and Linux's /proc/thread-self/schedstat moves in steps of the
// scheduler's tick (4 ms here). WASI's clock_time_get with CLOCK_THREAD_CPUTIME_ID is the POSIX clock of the calling
// thread (node's WASI: clock_gettime, to the nanosecond, ~2.5 µs a reading): a module of no code imports it and
// exports it. Where node has no WASI, or the clock is refused, the process's CPU time it is, and CLOCK says so.
import { name, section, vector } from './wasm-bytes.mjs';

const CLOCK_THREAD_CPUTIME_ID = 3;

// (module (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
//         (memory 1) (export "memory" (memory 0)) (export "clock_time_get" (func 0)))
const moduleBytes = () => new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, vector([[0x60, ...vector([[0x7f], [0x7e], [0x7f]]), ...vector([[0x7f]])]])),
  ...section(2, vector([[...name('wasi_snapshot_preview1'), ...name('clock_time_get'), 0x00, 0x00]])),
  ...section(5, vector([[0x00, 0x01]])),
  ...section(7, vector([[...name('memory'), 0x02, 0x00], [...name('clock_time_get'), 0x00, 0x00]])),
]);

/** The thread's clock in seconds, or null where node cannot read it. */
async function wasiThreadClock() {
  const warn = process.emitWarning;
  process.emitWarning = () => {};  // node 20 warns that WASI is experimental: not a finding of the benchmark's
  try {
    const { WASI } = await import('node:wasi');
    const wasi = new WASI({ version: 'preview1' });
    const imports = { wasi_snapshot_preview1: wasi.wasiImport };
    const instance = new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()), imports);
    wasi.initialize(instance);
    const { clock_time_get: get, memory } = instance.exports;
    const view = new DataView(memory.buffer);
    const read = () => (get(CLOCK_THREAD_CPUTIME_ID, 1n, 0) === 0 ? Number(view.getBigUint64(0, true)) / 1e9 : NaN);
    return Number.isFinite(read()) ? read : null;
  } catch {
    return null;  // no WASI in this node
  } finally {
    process.emitWarning = warn;
  }
}

/** Seconds of CPU time the process has used, every thread's (user + system). */
export const processSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
const threadClock = await wasiThreadClock();

/** Seconds of CPU time the calling thread has used (where node cannot read it: the process's, every thread's). */
export const threadSeconds = threadClock ?? processSeconds;

/** What threadSeconds reads here, for the reports' machine paragraph. */
export const CLOCK = threadClock
  ? 'CPU time of the thread that runs the contenders (CLOCK_THREAD_CPUTIME_ID)'
  : 'process CPU time (user + system; this node reads no thread\'s own)';

/** Seconds of the calling thread's CPU time spent in f. */
export function cpuSeconds(f) {
  const before = threadSeconds();
  f();
  return threadSeconds() - before;
}

/** The same for f returning a promise (awaited). */
export async function cpuSecondsAsync(f) {
  const before = threadSeconds();
  await f();
  return threadSeconds() - before;
}
