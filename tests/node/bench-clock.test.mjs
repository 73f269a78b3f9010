// The benchmarks' clock (bench/clock.mjs): the CPU time of the thread that reads it, not the process's. Each check is
// of what the clock counts (another thread's work, this thread's), whatever the machine's speed or load.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { CLOCK, cpuSeconds, processSeconds, threadSeconds } from '../../bench/clock.mjs';

// A worker that spins until its own thread has used `seconds` of CPU time, then says how much that was.
const spinner = (seconds) => new Worker(`
  const { parentPort } = require('node:worker_threads');
  import(${JSON.stringify(new URL('../../bench/clock.mjs', import.meta.url).href)}).then(({ threadSeconds }) => {
    const start = threadSeconds();
    let x = 0;
    while (threadSeconds() - start < ${seconds}) for (let i = 0; i < 1e5; i++) x += i;
    parentPort.postMessage({ used: threadSeconds() - start, x });
  });`, { eval: true });

test('on Linux the clock is the calling thread\'s own (node\'s WASI reads CLOCK_THREAD_CPUTIME_ID)', { skip: process.platform !== 'linux' }, () => {
  assert.match(CLOCK, /thread/);
});

test('another thread\'s work is not counted: a worker spinning 0.3 s of its CPU time while this thread waits', { skip: !/thread/.test(CLOCK) }, async () => {
  const thread = threadSeconds(), processBefore = processSeconds();
  const worker = spinner(0.3);
  const { used } = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  await worker.terminate();
  const here = threadSeconds() - thread, all = processSeconds() - processBefore;
  assert.ok(used >= 0.3, `the worker's clock read ${used} s`);
  assert.ok(all >= used, `the process's CPU time (${all} s) counts the worker's ${used} s`);
  assert.ok(here < used / 3, `this thread's clock moved ${here} s while the worker used ${used} s`);
});

test('this thread\'s work is counted, and never more than the wall clock that passed', () => {
  const wall = performance.now();
  let x = 0;
  const spent = cpuSeconds(() => {
    const start = threadSeconds();
    while (threadSeconds() - start < 0.05) for (let i = 0; i < 1e4; i++) x += i;
  });
  const elapsed = (performance.now() - wall) / 1000;
  assert.ok(x > 0 && spent >= 0.05, `${spent} s`);
  assert.ok(spent <= elapsed + 1e-3, `the thread's ${spent} s against ${elapsed} s of wall time`);
});
