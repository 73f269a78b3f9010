// What a call's new output array costs by itself: a Float32Array of attention's output size (T × 64), made from an
// array of the same size (one pass that writes every page of the new array), against copying into an array made once
// (what the call does with `out`), in node or in a page of headless Chromium:
//
//   node bench/fresh-array.mjs [--chromium]
//
// Prints the median time per array and per 4 KiB page for T = 256, 1024 and 4096. The difference between the two is
// what separates "seqorder" from "seqorder, out" in the attention tables: the engine's memory for a new array comes
// from the system untouched, and its first write to each page faults it in.
// (No node: imports up here: the page of --chromium imports this module.)
import { median } from '../web/js/median.mjs';
import { wallSeconds } from './simd-peak.mjs';

const WIDTH = 64;

/** In node or the page: [{ T, fresh, reused }], each the median seconds per array over `rounds` rounds. */
export function measureFreshArrays({ lengths = [256, 1024, 4096], rounds = 15, arrays = 2 ** 26 } = {}) {
  return lengths.map((T) => {
    const source = new Float32Array(T * WIDTH).fill(1), target = new Float32Array(T * WIDTH);
    const count = Math.max(4, Math.round(arrays / source.byteLength));  // ~64 MiB of arrays a round
    let keep = 0;
    const fresh = [], reused = [];
    for (let round = 0; round < rounds; round++) {
      fresh.push(wallSeconds(() => {
        for (let i = 0; i < count; i++) keep += new Float32Array(source)[i & 63];
      }) / count);
      reused.push(wallSeconds(() => {
        for (let i = 0; i < count; i++) keep += (target.set(source), target[i & 63]);
      }) / count);
    }
    if (keep !== 2 * rounds * count) throw new Error('fresh-array: the arrays were not what was written');
    return { T, fresh: median(fresh), reused: median(reused) };
  });
}

async function main() {
  const chromium = process.argv.includes('--chromium');
  let where = `node ${process.version}`, results;
  if (chromium) {
    const { inChromiumPage } = await import('./chromium-page.mjs');
    const { browser, result } = await inChromiumPage('fresh-array',
      async () => (await import('/bench/fresh-array.mjs')).measureFreshArrays());
    where = browser;
    results = result;
  } else {
    results = measureFreshArrays();
  }
  console.log(`${where}: an array of T × ${WIDTH} float32, median of 15 rounds`);
  for (const { T, fresh, reused } of results) {
    const pages = (T * WIDTH * 4) / 4096;
    console.log(`T = ${String(T).padEnd(5)} new array ${(fresh * 1e6).toFixed(1).padStart(7)} µs ` +
      `(${((fresh * 1e6) / pages).toFixed(2)} µs a page)   into one array ${(reused * 1e6).toFixed(1).padStart(6)} µs`);
  }
}
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === `file://${process.argv[1]}`) main();
