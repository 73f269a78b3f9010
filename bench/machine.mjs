// The machine a benchmark ran on, for its report: CPU, cores, node and V8, the load average when it started, the commit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
