// The benchmark's timing (web/js/bench-kernels.mjs, shared by bench.html and npm run bench) under a coarse clock:
// Firefox and WebKit step performance.now() in whole milliseconds on pages that are not cross-origin isolated, so a
// single fast call reads 0 or 1 ms. measure() must still time each contender right (it once read 0 ns per element in
// those browsers). Here the clock is simulated: every call costs a known virtual time, read through a 1 ms step.
// And the fresh inputs the pool's benchmarks walk: as many sets as the bytes asked hold, each its own values, in turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freshInputSets, measure, ring, speedup } from '../../web/js/bench-kernels.mjs';

/** A virtual clock stepping in `step` seconds, and contenders that advance it by their cost per call. */
function virtualClock(step = 0.001) {
  let now = 0;
  const read = () => Math.floor(now / step) * step;
  return {
    contender: (name, cost, extra = {}) => ({ name, run: () => { now += cost; }, ...extra }),
    time: async (f) => {
      const start = read();
      await f();
      return read() - start;
    },
  };
}

test('measure times fast calls right through a 1 ms clock, whatever single-call reading it is given', async () => {
  const clock = virtualClock();
  const contenders = [
    clock.contender('fast', 20e-6, { once: 0.001 }), // one call read as one clock step
    clock.contender('paused', 20e-6, { once: 0.008 }), // one call read long (a pause): reps from it would be 3
    clock.contender('slower', 50e-6, { once: 0 }),   // one call read as nothing
    clock.contender('unknown', 5e-6),                // no reading given
  ];
  const results = await measure(contenders, { rounds: 3, sampleSeconds: 0.02, time: clock.time });
  for (const [result, cost] of results.map((r, i) => [r, [20e-6, 20e-6, 50e-6, 5e-6][i]])) {
    assert.ok(Math.abs(result.seconds - cost) <= 0.1 * cost, `${result.name}: ${result.seconds} s per call, truly ${cost}`);
    assert.ok(result.reps * cost >= 0.005, `${result.name}: a sample of ${result.reps} calls spans less than 5 ms`);
  }
  const ratio = speedup(results[0], results[2]);
  assert.ok(Math.abs(ratio - 2.5) < 0.25, `fast ÷ slower: ${ratio}, truly 2.5`);
});

test('a sample that reads too short is taken again with more reps', async () => {
  const clock = virtualClock();
  // trusted as 0.2 s per call, truly 0.5 ms: one rep per sample would read 0 on a 1 ms clock
  const [result] = await measure([clock.contender('misread', 0.5e-3, { once: 0.2 })], { rounds: 3, sampleSeconds: 0.05, time: clock.time });
  assert.ok(Math.abs(result.seconds - 0.5e-3) <= 0.1 * 0.5e-3, `${result.seconds} s per call, truly 0.0005`);
  assert.ok(result.reps >= 5, `${result.reps} reps`);
});

test('a slow call read once is trusted: one rep per sample, no calibration calls', async () => {
  const clock = virtualClock();
  let calls = 0;
  const slow = { name: 'slow', run: () => { calls += 1; return clock.contender('x', 0.2).run(); }, once: 0.2 };
  const [result] = await measure([slow], { rounds: 2, sampleSeconds: 0.05, time: clock.time });
  assert.equal(result.reps, 1);
  assert.equal(calls, 2);
  assert.ok(Math.abs(result.seconds - 0.2) < 0.002);
});

test('warm: that many untimed calls start each sample, and only the steady state is timed', async () => {
  const clock = virtualClock();
  let calls = 0;
  // the first call after each pause costs 0.5 s, the others 0.2 s: a cold first call, then the steady state
  let cold = true;
  const contender = {
    name: 'cold first', once: 0.2, run: () => {
      calls += 1;
      clock.contender('x', cold ? 0.5 : 0.2).run();
      cold = false;
    },
  };
  const pause = () => { cold = true; };
  const [warmed] = await measure([contender], { rounds: 3, sampleSeconds: 0.05, time: clock.time, pause, warm: 2 });
  assert.equal(calls, 3 * (2 + 1), 'two untimed calls and one timed, per sample');
  assert.ok(Math.abs(warmed.seconds - 0.2) < 0.002, `${warmed.seconds} s per call, steady 0.2`);
  calls = 0;
  cold = true;
  const [unwarmed] = await measure([contender], { rounds: 3, sampleSeconds: 0.05, time: clock.time, pause });
  assert.equal(calls, 3);
  assert.ok(Math.abs(unwarmed.seconds - 0.5) < 0.002, `${unwarmed.seconds} s per call: each sample its cold first call`);
});

test('fresh inputs: as many distinct sets as the bytes hold (at least 2), walked in turn from the place asked', () => {
  const sets = freshInputSets(4, 2, { bytes: 3 * 4 * 2 * 4 * 5 });  // five sets of three (4, 2) float32 tensors
  assert.equal(sets.length, 5);
  const values = sets.flatMap(({ q, k, v }) => [q, k, v].map((t) => (assert.deepEqual(t.shape, [4, 2]), t.data.join())));
  assert.equal(new Set(values).size, 15);
  assert.equal(freshInputSets(4, 2, { bytes: 1 }).length, 2);
  const next = ring(sets, (set) => sets.indexOf(set), 3);
  assert.deepEqual(Array.from({ length: 7 }, next), [3, 4, 0, 1, 2, 3, 4]);
});
