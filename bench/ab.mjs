// Builds of the package (or one build with different options) timed against each other in one process, at the sizes a
// reader's calls have: attention, float32 (the fused kernel), on one thread or on a pool of workers. On a shared machine
// whose speed swings between runs, only rounds interleaved in one process compare builds fairly.
//
//   node bench/ab.mjs [--chromium] [--pool [workers]] [--quick] [--T 8,64] [--D 16,64] [--rounds 15] [--sample 0.1]
//                     [--any-bits] [--json out] A B ...
//
// Each contender is a folder of the built package (a checkout's dist/lib, after npm run build), optionally followed by
// #name=value,... : options of loadSeqorder (with --pool, of loadSeqorderPool), each value JSON, e.g.
// `/tmp/old/dist/lib#simd="relaxed"`, or `/tmp/old/dist/lib#sharedMemory=true` with --pool for the builds whose pool
// could share memory (up to commit 2079615). `kernel=<name>` runs one variant of the fused
// kernel, in the builds that had several (up to commit bd4433f: the core module's useAttentionKernel). A contender
// given twice is timed twice, a control: its ratio to itself is the run's noise.
//
// The sizes (--T and --D override the lengths and widths): T = 8, 64, 256, 1024, 4096 on one thread (with --pool 256,
// 512, 1024, 2048, 4096), D = 16, 64, 128, causal and not, q, k and v (T, D) and, up to T = 1024, (2, 4, T, D): a batch
// of 2 sentences of 4 heads. Before anything is timed every contender's output must be the first's, bit for bit
// (--any-bits times them anyway: for measurement builds that leave something out).
//
// Times: on one thread, CPU time (node: the calling thread's, bench/clock.mjs; Chromium: the page's main thread's),
// which waiting for a core busy with other work does not count; with --pool, wall time, and beside it the CPU time per
// call of every thread (node: this process's; Chromium: the page's process's, its workers' threads included, in steps
// as coarse as the system's clock ticks), the work each way costs. Chromium's page is served cross-origin isolated (so
// that a pool of those builds may share memory there). Each case runs rounds (--rounds, default 15) of every contender
// in turn, each sample (--sample seconds long, default 0.1) after one untimed call; a contender's speed over the
// first's is the median of the per-round ratios (speedup(), web/js/bench-kernels.mjs), with the middle half of those
// ratios. Prints a markdown table per width and a summary per contender (the lowest and highest ratio over the cases,
// and from T = 512 on); --json writes it all.
// (No node: imports up here: the page of --chromium imports this module.)
import { measure, randomTensor, speedup, wallSeconds } from '../web/js/bench-kernels.mjs';
import { middleHalf } from '../web/js/median.mjs';
import { abText, caseName } from './render/ab.mjs';

const isNode = typeof process !== 'undefined' && Boolean(process.versions?.node);

/** The cases: [{ T, D, causal, lead }] (lead: the leading axes of q, k and v). */
export function cases({ pool = false, lengths, widths } = {}) {
  const Ts = lengths ?? (pool ? [256, 512, 1024, 2048, 4096] : [8, 64, 256, 1024, 4096]);
  const list = [];
  for (const D of widths ?? [16, 64, 128])
    for (const T of Ts)
      for (const lead of T <= 1024 ? [[], [2, 4]] : [[]])
        for (const causal of [false, true]) list.push({ T, D, causal, lead });
  return list;
}

/** A case's floating-point operations per call (4·B·T²·D: q·kᵀ and weights·v; causal counts half). */
const flopsOf = ({ T, D, causal, lead }) => 4 * lead.reduce((a, b) => a * b, 1) * T * T * D * (causal ? 0.5 : 1);

/** 'folder#a=1,b="x"' → { folder, options: { a: 1, b: 'x' } }. */
export function parseContender(spec) {
  const [folder, rest] = spec.split('#');
  const options = {};
  for (const pair of rest ? rest.split(',') : []) {
    const at = pair.indexOf('=');
    if (at < 1) throw new RangeError(`ab: an option is name=value (JSON), got '${pair}' in ${spec}`);
    const name = pair.slice(0, at), text = pair.slice(at + 1);
    try {
      options[name] = JSON.parse(text);
    } catch {
      options[name] = text;  // a bare word: kernel=splat_in_loop
    }
  }
  return { folder, options };
}

async function bytesOf(url) {
  if (!isNode) return (await fetch(url)).arrayBuffer();
  const [{ readFile }, { fileURLToPath }] = await Promise.all([import('node:fs/promises'), import('node:url')]);
  return readFile(fileURLToPath(url));
}

/**
 * A contender's attention (q, k, v, options) → its output's data (a promise with --pool), from the package at `base`
 * (a URL ending in '/'), and close().
 */
async function load(base, { kernel, ...options }, workers) {
  if (workers) {
    const { loadSeqorderPool } = await import(new URL('pool/index.mjs', base).href);
    const pool = await loadSeqorderPool({ workers, ...options });
    return { attention: async (q, k, v, o) => (await pool.attention(q, k, v, o)).data, close: () => pool.close() };
  }
  if (kernel === undefined) {
    const { loadSeqorder } = await import(new URL('seqorder.mjs', base).href);
    const so = await loadSeqorder(options);
    return { attention: (q, k, v, o) => so.attention(q, k, v, o).data, close: () => {} };
  }
  // one variant of the fused kernel, in a build that had several: its core module, made to run it, under the API
  const [{ default: createCore }, { bindCalls }, { makeApi }] = await Promise.all(
    ['seqorder_core.mjs', 'binding.mjs', 'api.mjs'].map((file) => import(new URL(file, base).href)));
  const core = bindCalls(await createCore({ wasmBinary: await bytesOf(new URL('seqorder/seqorder_core.wasm', base)) }));
  if (typeof core.useAttentionKernel !== 'function')
    throw new RangeError(`ab: ${base} has one attention kernel: kernel=${kernel} needs a build that had several`);
  const message = core.useAttentionKernel(kernel);
  if (message) throw new RangeError(`ab: ${message}`);
  const so = makeApi(core);
  return { attention: (q, k, v, o) => so.attention(q, k, v, o).data, close: () => {} };
}

const sameBits = (a, b) => {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length), y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.length === y.length && x.every((bits, i) => bits === y[i]);
};

/**
 * The A/B itself, in node or in the page: contenders [{ name, base (URL of the package's folder), options }] →
 * { cases: [{ T, D, causal, lead, results: [{ name, gflops, overFirst, middleHalf, sameBits, fastestOverFirst,
 * samples, cpuOverFirst?, cpuSamples? }] }] } (fastestOverFirst: the ratio of the two fastest rounds, which other work
 * on the machine slows least; samples: the seconds per call of each round).
 * `time(f)`: the seconds spent in f; `cpu()`, if given, the CPU seconds every thread has spent so far, read around
 * each sample (cpuOverFirst: the first's CPU time per call over this one's, the median of the rounds'); rounds, sampleSeconds (each sample's length) and warmSeconds (each contender's warm-up, three
 * times) default to the full run's, or --quick's.
 */
export async function compare(contenders, {
  workers = 0, quick = false, lengths, widths, anyBits = false, time, cpu, log = () => {},
  rounds = quick ? 5 : 15, sampleSeconds = quick ? 0.03 : 0.1, warmSeconds = 0.1,
}) {
  const loaded = [];
  try {
    for (const c of contenders) loaded.push({ ...c, ...(await load(c.base, c.options, workers)) });
    // warm-up: the engines compile WebAssembly with a baseline compiler first and tier hot functions up in the
    // background; so every contender runs for a while on two small sizes, causal and not, then compilation is let end
    const small = [16, 256].map((T) => [1, 2, 3].map((seed) => randomTensor([T, 64], seed)));
    for (let round = 0; round < 3; round++) {
      for (const c of loaded) {
        const start = performance.now();
        for (let i = 0; performance.now() - start < 1000 * warmSeconds; i++) await c.attention(...small[i % 2], { causal: i % 4 >= 2 });
      }
      await new Promise((resolve) => setTimeout(resolve, 2000 * warmSeconds));
    }
    const results = [];
    for (const size of cases({ pool: workers > 0, lengths, widths })) {
      const { T, D, causal, lead } = size;
      const [q, k, v] = [1, 2, 3].map((seed) => randomTensor([...lead, T, D], seed));
      const outputs = [];
      for (const c of loaded) outputs.push(await c.attention(q, k, v, { causal }));
      const bits = outputs.map((output) => sameBits(output, outputs[0]));
      const differing = loaded.filter((_, i) => !bits[i]).map((c) => c.name);
      if (differing.length && !anyBits) throw new Error(`ab: ${differing.join(', ')} differ from ${loaded[0].name} at ${caseName(size)}`);
      const timed = await measure(loaded.map((c) => ({ name: c.name, run: () => c.attention(q, k, v, { causal }) })),
        { rounds, sampleSeconds, time, cpu, warm: 1 });
      const flops = flopsOf(size);
      results.push({
        ...size,
        results: timed.map((r, i) => ({
          name: r.name, gflops: flops / r.seconds / 1e9, overFirst: speedup(r, timed[0]),
          middleHalf: middleHalf(r.samples.map((s, round) => timed[0].samples[round] / s)), sameBits: bits[i],
          fastestOverFirst: Math.min(...timed[0].samples) / Math.min(...r.samples), samples: r.samples,
          ...(cpu ? { cpuOverFirst: speedup({ samples: r.cpuSamples }, { samples: timed[0].cpuSamples }), cpuSamples: r.cpuSamples } : {}),
        })),
      });
      log(`${caseName(size)}: ${results.at(-1).results.map((r) => `${r.name} ${r.overFirst.toFixed(3)}`).join(', ')}`);
    }
    return { cases: results };
  } finally {
    await Promise.all(loaded.map((c) => c.close()));
  }
}

/**
 * A clock of the page's main thread's CPU time from `threadSeconds` (chromium-page.mjs): seconds spent in f (awaited),
 * less what reading the clock twice costs (the median of 9 empty readings).
 */
export async function threadClock(threadSeconds) {
  const read = async (f) => {
    const before = await threadSeconds();
    await f();
    return (await threadSeconds()) - before;
  };
  const empty = [];
  for (let i = 0; i < 9; i++) empty.push(await read(() => {}));
  const cost = empty.sort((a, b) => a - b)[4];
  return async (f) => (await read(f)) - cost;
}

// ---- the command ------------------------------------------------------------------------------------------------------
async function main() {
  const { writeFileSync } = await import('node:fs');
  const path = await import('node:path');
  const os = (await import('node:os')).default;
  const { pathToFileURL } = await import('node:url');
  const { machine } = await import('./harness.mjs');
  const args = process.argv.slice(2);
  const take = (name) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const next = args[at + 1];
    const value = next !== undefined && !next.startsWith('--') && !(name === '--pool' && !/^\d+$/.test(next)) ? next : true;
    args.splice(at, value === true ? 1 : 2);
    return value;
  };
  const list = (value) => (value === undefined ? undefined : String(value).split(',').map(Number));
  const chromium = take('--chromium') === true, quick = take('--quick') === true, anyBits = take('--any-bits') === true;
  const poolArg = take('--pool');
  const workers = poolArg === undefined ? 0 : poolArg === true ? (os.availableParallelism?.() ?? os.cpus().length) : Number(poolArg);
  const lengths = list(take('--T')), widths = list(take('--D'));
  const rounds = list(take('--rounds'))?.[0], sampleSeconds = list(take('--sample'))?.[0];
  const json = take('--json');
  if (args.length < 2 || args.some((a) => a.startsWith('--')) || [...(lengths ?? []), ...(widths ?? [])].some((n) => !(n >= 1)) ||
      !(rounds === undefined || Number.isInteger(rounds) && rounds >= 1) || !(sampleSeconds === undefined || sampleSeconds > 0)) {
    console.error('usage: node bench/ab.mjs [--chromium] [--pool [workers]] [--quick] [--T 8,64] [--D 16,64] [--rounds 15] ' +
      '[--sample 0.1] [--any-bits] [--json out] A B ...');
    process.exit(2);
  }
  // a contender given twice is timed twice, the second time named "(again)": a control, whose ratio shows the noise
  const specs = args.map((spec, i) => ({ name: args.indexOf(spec) < i ? `${spec} (again)` : spec, ...parseContender(spec) }));
  const options = { workers, quick, lengths, widths, anyBits, ...(rounds ? { rounds } : {}), ...(sampleSeconds ? { sampleSeconds } : {}) };
  const log = (line) => console.error(line);
  let where, result;
  const clocks = chromium ? undefined : await import('./clock.mjs');  // (node only: the page imports ab.mjs)
  const clock = workers ? 'wall time' : chromium ? 'the page\'s main thread\'s CPU time' : clocks.CLOCK;
  const atStart = machine(`${clock}, medians of interleaved rounds; ratios are medians of per-round ratios`);
  if (chromium) {
    const { inChromiumPage } = await import('./chromium-page.mjs');
    const mounts = Object.fromEntries(specs.map((s, i) => [`/ab/${i}/`, path.resolve(s.folder)]));
    ({ browser: where, result } = await inChromiumPage('ab', async ({ contenders, options }) => {
      const { compare, threadClock } = await import('/bench/ab.mjs');
      const { wallSeconds } = await import('/web/js/bench-kernels.mjs');
      const time = options.workers ? wallSeconds : await threadClock(globalThis.threadSeconds);
      const cpu = options.workers ? globalThis.processSeconds : undefined;
      return compare(contenders.map((c) => ({ ...c, base: new URL(c.base, location.href).href })), { ...options, time, cpu });
    }, { contenders: specs.map((s, i) => ({ name: s.name, base: `/ab/${i}/`, options: s.options })), options }, { mounts }));
  } else {
    where = `node ${process.versions.node}`;
    const contenders = specs.map((s) => ({ name: s.name, base: `${pathToFileURL(path.resolve(s.folder)).href}/`, options: s.options }));
    const time = workers ? wallSeconds : clocks.cpuSecondsAsync;
    const cpu = workers ? clocks.processSeconds : undefined;
    result = await compare(contenders, { ...options, time, cpu, log });
  }
  const report = { machine: atStart, where, clock, workers, contenders: specs.map((s) => s.name), ...result };
  report.machine.loadAverageAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);
  console.log(abText(report));
  if (json) {
    writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
    console.error(`wrote ${json}`);
  }
}
if (isNode && process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  main().then(() => process.exit(0), (error) => {
    console.error(error.stack ?? error.message);
    process.exit(1);
  });
}
