// How fast each of the pool's workers has been computing, relative to the others, so that a call's runs of rows can be
// cut in proportion (split.mjs's cutRows): a worker whose core runs slower (a phone's efficiency core, a virtual
// machine's core its host also gives to other work, a core shared with other threads) gets less, and the call's runs
// end together rather than waiting for the slowest. With even cores the paces stay near 1 and the cut near even.
//
// Each call split in several runs teaches it: a run's rate is its work over the time its worker took for it (worker.mjs
// times its op with timer(); in a pool whose calling thread computes a share, options.callingThread, every run is
// timed from the call's start to its end instead, its time on the call's path: pool.mjs), compared with the others'
// in the same call, so the pace is the same whatever the call's size; a worker's pace moves part of the way (LEARNING)
// to what its call showed. Paces are relative: the paces of a call's workers keep their mean. A call with a run too
// short for its worker's clock to time (timer(): the clock is coarse where a page is not cross-origin isolated)
// teaches nothing.

/** The part of the way a worker's pace moves to what one call showed. */
const LEARNING = 0.25;
/** The most one call may show a worker faster or slower than its workers' mean rate (a pause, a fault, a clock). */
const MOST = 4;

/** paces(count) → { of(index) → the worker's pace (1 until a call shows otherwise), learn(workers, works, times) }. */
export function paces(count) {
  const pace = new Array(count).fill(1);
  return {
    of: (index) => pace[index],
    /**
     * What one call showed: run j, on worker workers[j], did works[j] of work in times[j] ms (null: not timed). Calls
     * in one run, and calls with a run not timed, teach nothing.
     */
    learn(workers, works, times) {
      if (workers.length < 2 || times.some((t) => !(t > 0))) return;
      const rates = works.map((work, j) => work / times[j]);
      const rate = rates.reduce((a, b) => a + b, 0) / rates.length;
      const shown = rates.map((r) => Math.min(MOST, Math.max(1 / MOST, r / rate)));
      const mean = workers.reduce((sum, index) => sum + pace[index], 0) / workers.length;
      const shownMean = shown.reduce((a, b) => a + b, 0) / shown.length;
      workers.forEach((index, j) => {
        pace[index] += LEARNING * ((mean * shown[j]) / shownMean - pace[index]);
      });
    },
  };
}

/** The clock steps a run must last for its time to be told (to within 5%): a shorter one's is null. */
const TIMED_STEPS = 20;

/**
 * timer() → time(work) → { value: work(), took: the milliseconds it took, or null if fewer than TIMED_STEPS steps of
 * this thread's clock }. The clock, performance.now(), is one that engines coarsen where a page is not cross-origin
 * isolated (to 0.1 ms, or 1 ms): its step is measured once, by timer() (the time from one change of its value to the
 * next).
 */
export function timer() {
  const next = () => {
    const now = performance.now();
    let later;
    do later = performance.now(); while (later === now);
    return later;
  };
  const first = next();
  const step = next() - first;
  return (work) => {
    const start = performance.now();
    const value = work();
    const took = performance.now() - start;
    return { value, took: took >= TIMED_STEPS * step ? took : null };
  };
}
