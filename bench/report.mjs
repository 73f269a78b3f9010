// What the benchmarks' reports (bench/run.mjs, bench/pool.mjs) are made of: their command line, the machine they ran on
// (CPU, cores, node and V8, the load average, the commit), and markdown tables.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The commit the benchmark ran at, with ' (modified)' when the work tree differs from it. */
function gitDescribe() {
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
  const lib = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'lib');
  if (!existsSync(path.join(lib, file))) {
    console.error(`bench: no built package in ${lib}: run npm run build first (or set SEQORDER_DIST)`);
    process.exit(1);
  }
  return import(pathToFileURL(path.join(lib, file)).href);
}

/**
 * The command line: --quick, and --json path (else bench/results/<name>.json, <quickName>.json with --quick or for a
 * `partial` run).
 */
export function benchArgs(name, quickName, partial = false) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const jsonPath = args.includes('--json')
    ? path.resolve(args[args.indexOf('--json') + 1])
    : path.join(root, 'bench', 'results', `${quick || partial ? quickName : name}.json`);
  return { args, quick, jsonPath };
}

// ---- tables --------------------------------------------------------------------------------------------------------------
export const fixed = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '—');
export const times = (x) => (Number.isFinite(x) ? `${x.toFixed(x >= 10 ? 1 : 2)}×` : '—');

const row = (cells) => `| ${cells.join(' | ')} |`;

/** One column per case, one row per contender, then the ratios: fits a README. */
export function table(header, columns, rows) {
  return [row([header, ...columns]), row(Array(columns.length + 1).fill('---')), ...rows.map((r) => row(r))].join('\n');
}
