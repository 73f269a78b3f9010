// What a call's new output array costs by itself: a Float32Array of attention's output size (T × 64), made from an
// array of the same size (one pass that writes every page of the new array), against copying into an array made once
// (what the call does with `out`), in node or in a page of one of the test engines (Chromium, Firefox, WebKit), this
// repository served to it:
//
//   node bench/fresh-array.mjs [--browser chromium|firefox|webkit]
//   node bench/fresh-array.mjs --attention
//
// Prints the median time per array and per 4 KiB page for T = 256, 1024 and 4096. The difference between the two is
// what separates "seqorder" from "seqorder, out" in the attention tables: the engine's memory for a new array may come
// from the system untouched, and then its first write to each page faults it in.
// --attention (node only, the built package) runs so.attention itself at T = 1024 in this process, with a new output and
// with `out` in turn, and prints each one's CPU time (user, system) and the page faults (minor) of a call: whether the
// new outputs' memory is reused depends on the allocator's state in the process, not only on the engine.
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

/** measureFreshArrays() in a page of `engine` (tests/browser/helpers/engines), this repository served to it. */
async function inBrowser(engine) {
  const { inEnginePage } = await import('./chromium-page.mjs');
  const { result } = await inEnginePage(engine, 'fresh-array',
    async () => (await import('/bench/fresh-array.mjs')).measureFreshArrays());
  return result;
}

/** Node only: { T, calls, modes: [{ name, user, system, faults }] }, per call, the medians of `rounds` rounds. */
export async function measureAttentionFaults({ T = 1024, calls = 20, rounds = 5 } = {}) {
  const { importPackage } = await import('./harness.mjs');
  const so = await (await importPackage()).loadSeqorder();
  const tensor = (seed) => ({
    data: Float32Array.from({ length: T * WIDTH }, (_, i) => Math.sin(seed * 7919 + i) / 2), shape: [T, WIDTH], dtype: 'float32',
  });
  const q = tensor(1), k = tensor(2), v = tensor(3), out = new Float32Array(T * WIDTH);
  const modes = { 'new output': () => so.attention(q, k, v).data, out: () => so.attention(q, k, v, { out }).data };
  const samples = Object.fromEntries(Object.keys(modes).map((name) => [name, { user: [], system: [], faults: [] }]));
  for (let round = -1; round < rounds; round++)  // round -1 warms up: compiles, probes, grows the heap
    for (const [name, run] of Object.entries(modes)) {
      const faults0 = process.resourceUsage().minorPageFault, cpu0 = process.cpuUsage();
      let first = 0;
      for (let i = 0; i < calls; i++) first += run()[0];
      const cpu = process.cpuUsage(cpu0), faults = process.resourceUsage().minorPageFault - faults0;
      if (!Number.isFinite(first)) throw new Error('fresh-array: attention gave a non-finite output');
      if (round < 0) continue;
      samples[name].user.push(cpu.user / 1e6 / calls);
      samples[name].system.push(cpu.system / 1e6 / calls);
      samples[name].faults.push(faults / calls);
    }
  return {
    T, calls,
    modes: Object.entries(samples).map(([name, s]) => ({ name, user: median(s.user), system: median(s.system), faults: median(s.faults) })),
  };
}

async function main() {
  if (process.argv.includes('--attention')) {
    const { T, modes } = await measureAttentionFaults();
    console.log(`node ${process.version}: so.attention, T = ${T}, D = ${WIDTH}, float32, per call (medians of 5 rounds of 20 calls)`);
    for (const { name, user, system, faults } of modes)
      console.log(`${name.padEnd(10)} user ${(user * 1e3).toFixed(2)} ms   system ${(system * 1e3).toFixed(2)} ms   ` +
        `page faults ${faults.toFixed(1)} (the output: ${(T * WIDTH * 4) / 4096} pages)`);
    return;
  }
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
