// What a call's new output array costs by itself: a Float32Array of attention's output size (T × 64), made from an
// array of the same size (one pass that writes every page of the new array), against copying into an array made once
// (what the call does with `out`), in node or in a page of one of the test engines (Chromium, Firefox, WebKit), this
// repository served to it:
//
//   node bench/fresh-array.mjs [--browser chromium|firefox|webkit]
//
// Prints the median time per array and per 4 KiB page for T = 256, 1024 and 4096. The difference between the two is
// what separates "seqorder" from "seqorder, out" in the attention tables: the engine's memory for a new array may come
// from the system untouched, and then its first write to each page faults it in.
// (No node: imports up here: the page of --browser imports this module.)
import { median } from '../web/js/median.mjs';
import { wallSeconds } from './simd-peak.mjs';

const WIDTH = 64;

/**
 * In node or the page: { lengths: [{ T, fresh, reused }], each the median seconds per array over `rounds` rounds,
 * systemPage: the median seconds of a first write to a page of a 64 MiB array (more than any allocator keeps for
 * reuse: its memory comes from the system untouched) }.
 */
export function measureFreshArrays({ lengths = [256, 1024, 4096], rounds = 15, arrays = 2 ** 26, large = 2 ** 26 } = {}) {
  const perLength = lengths.map((T) => {
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
  const pageFloats = 1024, systemPage = [];
  for (let round = 0; round < Math.min(rounds, 5); round++) {
    let array;
    systemPage.push(wallSeconds(() => {
      array = new Float32Array(large / 4);
      for (let i = 0; i < array.length; i += pageFloats) array[i] = 1;
    }) / (array.length / pageFloats));
  }
  return { lengths: perLength, systemPage: median(systemPage) };
}

/** measureFreshArrays() in a page of `engine` (tests/browser/engines), this repository served to it. */
async function inBrowser(engine) {
  const { emptyPageServer } = await import('./chromium-page.mjs');
  const { openBrowser } = await import('../tests/browser/engines/index.mjs');
  const server = await emptyPageServer('fresh-array');
  const browser = await openBrowser(engine);
  try {
    await browser.goto(server.url);
    return await browser.evaluate(async () => (await import('/bench/fresh-array.mjs')).measureFreshArrays());
  } finally {
    await browser.close();
    await server.close();
  }
}

async function main() {
  const at = process.argv.indexOf('--browser');
  const engine = at > 0 ? process.argv[at + 1] : undefined;
  const { lengths, systemPage } = engine ? await inBrowser(engine) : measureFreshArrays();
  console.log(`${engine ?? `node ${process.version}`}: an array of T × ${WIDTH} float32, median of 15 rounds`);
  for (const { T, fresh, reused } of lengths) {
    const pages = (T * WIDTH * 4) / 4096;
    console.log(`T = ${String(T).padEnd(5)} new array ${(fresh * 1e6).toFixed(1).padStart(7)} µs ` +
      `(${((fresh * 1e6) / pages).toFixed(2)} µs a page)   into one array ${(reused * 1e6).toFixed(1).padStart(6)} µs`);
  }
  console.log(`a page of memory new from the system (a 64 MiB array), its first write: ${(systemPage * 1e6).toFixed(2)} µs`);
}
if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url === `file://${process.argv[1]}`) main();
