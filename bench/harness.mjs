// What the benchmarks share while they run (bench/run.mjs, bench/pool.mjs, bench/sizes.mjs, bench/attention-kernel.mjs,
// bench/page-ready.mjs, ...): their command line, the machine they run on (CPU, cores, node and V8, the load average,
// the commit) and the kind of processor that names their results' folder (bench/results/<kind>/), the built package,
// and the names of their contenders. Their tables are rendered by bench/render/, which may import this file (never the
// other way round).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The commit the benchmark ran at, with ' (modified)' when the work tree differs from it. */
export function gitDescribe() {
  try {
    const git = (...a) => execFileSync('git', a, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no', '--', 'src', 'CMakeLists.txt') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (modified)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The 1, 5 and 15-minute load averages, rounded. */
export const loadAverage = () => os.loadavg().map((x) => Number(x.toFixed(2)));

/** The machine, and `clock`: what the benchmark's times are. */
export function machine(clock) {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'));
    if (line) cpu = line.split(':')[1].trim();
  } catch { /* not Linux: os.cpus() it is */ }
  return {
    cpu,
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    v8: process.versions.v8,
    date: new Date().toISOString(),
    loadAverage: loadAverage(),
    clock,
    commit: gitDescribe(),
  };
}

/**
 * A module of the built package ($SEQORDER_DIST/lib, default dist/lib): its entry point, or `file` (pool/index.mjs for
 * seqorder/pool); exits with a hint when it is not built.
 */
export async function importPackage(file = 'seqorder.mjs') {
  const lib = packageLib();
  if (!existsSync(path.join(lib, file))) {
    console.error(`bench: no built package in ${lib}: run npm run build first (or set SEQORDER_DIST)`);
    process.exit(1);
  }
  return import(packageUrl(file));
}

/** The built package's folder, and the URL of one of its modules (importPackage's), for a worker to import it. */
const packageLib = () => path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
export const packageUrl = (file = 'seqorder.mjs') => pathToFileURL(path.join(packageLib(), file)).href;

/**
 * The kind of processor this runs on, which names the folder of its results (bench/results/<kind>/): the same
 * WebAssembly runs at a different share of the peak on each. 'intel'; 'amd-zen3' or 'amd-zen4' (AMD family 25, by
 * model: 0x00-0x0f and 0x20-0x5f Zen 3, the others Zen 4); 'amd-zen5' (family 26); 'amd-family-<n>' for other AMD
 * families; else the vendor or the architecture.
 */
export function machineKind(cpuinfo = readCpuinfo()) {
  const field = (name) => cpuinfo.split('\n').find((l) => l.startsWith(name))?.split(':')[1]?.trim();
  const vendor = field('vendor_id');
  if (vendor === 'GenuineIntel') return 'intel';
  if (vendor === 'AuthenticAMD') {
    const family = Number(field('cpu family')), model = Number(field('model'));
    if (family === 26) return 'amd-zen5';
    if (family !== 25) return `amd-family-${family}`;
    return model < 0x10 || (model >= 0x20 && model < 0x60) ? 'amd-zen3' : 'amd-zen4';
  }
  return (vendor ?? os.arch()).toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
function readCpuinfo() {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';  // not Linux
  }
}

/**
 * The command line: --quick, and --json path (else bench/results/<machine kind>/<name>.json, <quickName>.json with
 * --quick or for a `partial` run, which are not committed).
 */
export function benchArgs(name, quickName, partial = false) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const jsonPath = args.includes('--json')
    ? path.resolve(args[args.indexOf('--json') + 1])
    : path.join(root, 'bench', 'results', machineKind(), `${quick || partial ? quickName : name}.json`);
  return { args, quick, jsonPath };
}

/** The names bench/pool.mjs gives its contenders. */
export const poolName = (workers) => `pool, ${workers} worker${workers > 1 ? 's' : ''}`;
export const ortThreadsName = (cores) => `onnxruntime-web, ${cores} thread${cores > 1 ? 's' : ''}`;
/** The pool of `workers` workers with options.callingThread: the calling thread computes a share too. */
export const poolCallingName = (workers) => `pool, ${workers} worker${workers > 1 ? 's' : ''} and the calling thread`;
export const poolBoundName = (workers) => `${workers} workers, inputs in place (the pool's bound)`;

/** bench/run.mjs's sections (its --only). */
export const RUN_SECTIONS = ['attention', 'positions', 'training', 'schemes'];

/** The core's and the model's C++ sources (src/core, src/core/model; not the calls and bindings the package adds), for
 * the native harnesses (model-speed.mjs, model-study.mjs), relative to the repository. */
export const modelSources = () => ['src/core', 'src/core/model'].flatMap((dir) =>
  readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.cpp')).sort().map((f) => `${dir}/${f}`));

let collectGarbage;  // V8's gc(), reached without --expose-gc on node's command line (npm run bench starts node plainly)

/**
 * Collects the garbage the contenders have left so far and gives V8's background threads 50 ms to finish with it,
 * before a sample: a heap grown by one contender (tfjs's tensors, plain JS's arrays) is otherwise marked and swept
 * while the next one is timed, in part on the timed thread.
 */
export async function settle() {
  if (!collectGarbage) {
    v8.setFlagsFromString('--expose-gc');
    collectGarbage = vm.runInNewContext('gc');
  }
  collectGarbage();
  await sleep(50);
}
