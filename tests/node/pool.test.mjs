// loadSeqorderPool: attention over worker_threads. Its results are so.attention's bit for bit over many shapes (the
// splits of pool/split.mjs exercised: several runs per call, causal runs from their own queryStart, batch and head
// axes spread); its errors are so.attention's, class and message; a worker that dies rejects its calls and is
// replaced; close() rejects what is pending; and a node process that used a pool exits by itself.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { lib, loadSeqorder, loadSeqorderPool } from './helpers/load.mjs';
import { uniformTensor } from './helpers/random.mjs';

const internal = (file) => import(pathToFileURL(path.join(lib, file)).href);
const { cutRows, callsOf, runWork, ITEM_EDGE_WORK, MIN_RUN_WORK } = await internal('pool/split.mjs');
const { paces } = await internal('pool/pace.mjs');
const { sizeClass } = await internal('pool/pool.mjs');
const { DTYPES } = await internal('arguments.mjs');
const { workersOf } = await internal('pool/index.mjs');
const { startWorkers, workerFailed } = await internal('pool/protocol.mjs');

const so = await loadSeqorder();
const WORKERS = 3;  // more than this machine's cores, so that calls split in three
let pool;
before(async () => {
  pool = await loadSeqorderPool({ workers: WORKERS });
});
after(() => pool?.close());

const bytes = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

/** Asserts two results of attention (tensors or four steps) are the same shapes, dtypes and bytes. */
function assertSame(got, want, label) {
  const list = (r) => ('data' in r ? { output: r } : r);
  const g = list(got);
  const w = list(want);
  assert.deepEqual(Object.keys(g), Object.keys(w), label);
  for (const key of Object.keys(w)) {
    assert.deepEqual(g[key].shape, w[key].shape, `${label}: ${key} shape`);
    assert.equal(g[key].dtype, w[key].dtype, `${label}: ${key} dtype`);
    assert.equal(g[key].data.constructor, w[key].data.constructor, `${label}: ${key} class`);
    assert.ok(bytes(g[key]).equals(bytes(w[key])), `${label}: ${key} differs from one thread's`);
  }
}

/** The plan the core would make (the fields cutRows reads), for counting a call's runs. */
function planOf(lead, Tq, Tk, D, Dv, { causal = false, queryStart, steps = false } = {}, dtype = 'float32') {
  return {
    batch: lead.reduce((a, b) => a * b, 1), queries: Tq, keys: Tk, width: D, valueWidth: Dv, causal,
    queryStart: causal ? queryStart ?? Tk - Tq : 0, rowGroup: dtype === 'float32' && !steps ? 4 : 1,
  };
}

describe('pool-split: runs of rows', () => {
  test('cover every row once, in order, cut only where a row group starts, with even work', () => {
    let checked = 0;
    for (const B of [1, 2, 3, 7])
      for (const Tq of [1, 3, 4, 5, 17, 64, 130, 1000])
        for (const causal of [false, true])
          for (const parts of [1, 2, 3, 8]) {
            const Tk = Tq + (causal ? 3 : 11);
            const plan = planOf([B], Tq, Tk, 64, 64, { causal });
            const runs = cutRows(plan, parts);
            const label = `B ${B} Tq ${Tq} causal ${causal} parts ${parts}`;
            assert.ok(runs.length >= 1 && runs.length <= parts, label);
            assert.equal(runs[0][0], 0, label);
            assert.equal(runs.at(-1)[1], B * Tq, label);
            for (let j = 0; j < runs.length; j++) {
              const [first, end] = runs[j];
              assert.ok(end > first, `${label}: run ${j} empty`);
              if (j > 0) assert.equal(first, runs[j - 1][1], `${label}: runs ${j - 1} and ${j} are not adjacent`);
              assert.equal((first % Tq) % plan.rowGroup, 0, `${label}: run ${j} starts inside a row group`);
              // its calls: contiguous rows, several batch items only whole
              const calls = callsOf(plan, first, end);
              let g = first;
              for (const { item, items, row, rows } of calls) {
                assert.equal(item * Tq + row, g, label);
                assert.ok(items === 1 || (row === 0 && rows === Tq), label);
                g += items * rows;
              }
              assert.equal(g, end, label);
            }
            // work: each run within one row group's work (plus rounding) of an even share, or of an item's edge near it
            const work = (g) => {
              const item = Math.floor(g / Tq);
              const r = g - item * Tq;
              const rowsWork = (n) => (causal ? n * (Tk - Tq + 2) + (n * (n - 1)) / 2 : n * (Tk + 1));
              return item * rowsWork(Tq) + rowsWork(r);
            };
            const group = 4 * (Tk + 1) + 2 * ITEM_EDGE_WORK / 128;
            const multiplyAdds = work(B * Tq) * 128;
            const even = work(B * Tq) / runs.length;
            if (runs.length === Math.min(parts, B * Math.ceil(Tq / 4)))
              for (const [first, end] of runs) assert.ok(work(end) - work(first) <= even + group, `${label}: run work ${work(end) - work(first)} vs ${even}`);
            else assert.ok(multiplyAdds < parts * MIN_RUN_WORK, `${label}: ${runs.length} runs for a call worth splitting`);
            checked++;
          }
    assert.ok(checked > 200);
  });

  test('cut in proportion to shares: each run within one row group of its share of the work', () => {
    let checked = 0;
    for (const B of [1, 3])
      for (const Tq of [64, 1000, 4096])
        for (const causal of [false, true])
          for (const shares of [[1, 1], [2, 1], [1, 3], [0.25, 1, 4], [1, 2, 3, 4]]) {
            const Tk = Tq + (causal ? 3 : 11);
            const plan = planOf([B], Tq, Tk, 64, 64, { causal });
            const runs = cutRows(plan, shares);
            const label = `B ${B} Tq ${Tq} causal ${causal} shares ${shares}`;
            const total = runWork(plan, 0, B * Tq);
            const group = 4 * (Tk + 1);
            if (runs.length < shares.length) {
              assert.ok(total * 128 < shares.length * MIN_RUN_WORK || B * Math.ceil(Tq / 4) < shares.length, label);
              continue;
            }
            const sum = shares.reduce((a, b) => a + b, 0);
            let before = 0;
            runs.forEach(([first, end], j) => {
              assert.equal(first, j === 0 ? 0 : runs[j - 1][1], label);
              assert.equal((first % Tq) % plan.rowGroup, 0, `${label}: run ${j} starts inside a row group`);
              // each cut within half a group of where the shares put it (so each run within a group of its share),
              // or on the edge of a batch item near it
              before += shares[j];
              const cutAt = runWork(plan, 0, end);
              const off = Math.abs(cutAt - (total * before) / sum);
              const onEdge = end % Tq === 0 && end < B * Tq && off * 128 <= ITEM_EDGE_WORK;
              assert.ok(off <= group / 2 + 1e-6 || onEdge, `${label}: cut ${j} at ${cutAt} of ${total}`);
            });
            assert.equal(runs.at(-1)[1], B * Tq, label);
            checked++;
          }
    assert.ok(checked >= 30, `${checked} cases`);
  });

  test('a cut near a batch item\'s edge falls on it; one far from any falls inside an item', () => {
    const eight = planOf([8], 256, 256, 64, 64, { causal: true });  // 8 items, each 4.2M multiply-adds (4 times ITEM_EDGE_WORK)
    assert.deepEqual(cutRows(eight, [1.04, 1]), [[0, 1024], [1024, 2048]]);
    const [[, inside]] = cutRows(eight, [1, 1.3]);  // 3.48 items of work before it: far from an edge
    assert.ok(inside > 3 * 256 && inside < 4 * 256 && inside % 4 === 0, `${inside}`);
    const two = planOf([2], 1024, 1024, 64, 64);
    const [[, cut]] = cutRows(two, [3, 1]);
    assert.ok(cut > 1024 && cut < 2048 && cut % 4 === 0, `${cut}`);
  });

  test('runWork: a run\'s work, additive, the causal rows seeing one key more each', () => {
    const plain = planOf([2], 10, 12, 8, 8);
    assert.equal(runWork(plain, 0, 20), 20 * 13);
    assert.equal(runWork(plain, 3, 17), 14 * 13);
    const causal = planOf([2], 10, 12, 8, 8, { causal: true });  // queryStart 2: row i sees 3 + i keys
    assert.equal(runWork(causal, 0, 1), 4);
    assert.equal(runWork(causal, 9, 11), (3 + 9 + 1) + (3 + 0 + 1));
    assert.equal(runWork(causal, 0, 20), 2 * (10 * 4 + 45));
  });

  test('no rows, no runs; a small call is one run', () => {
    assert.deepEqual(cutRows(planOf([0], 5, 5, 8, 8), 4), []);
    assert.deepEqual(cutRows(planOf([2], 0, 5, 8, 8), 4), []);
    assert.deepEqual(cutRows(planOf([1], 8, 8, 8, 8), 4), [[0, 8]]);
  });
});

describe('pool-pace: how fast each worker has been', () => {
  test('starts even; a call in one run, or with an untimed run, teaches nothing', () => {
    const p = paces(3);
    assert.deepEqual([0, 1, 2].map(p.of), [1, 1, 1]);
    p.learn([1], [100], [1]);
    p.learn([0, 1], [100, 100], [0, 2]);
    p.learn([0, 1], [100, 100], [null, 2]);
    assert.deepEqual([0, 1, 2].map(p.of), [1, 1, 1]);
  });

  test('a worker half as fast, call after call: its pace goes to half the other\'s, their mean kept', () => {
    const p = paces(3);
    for (let call = 0; call < 60; call++) {
      // the next cut gives each its pace's share; the slow one (worker 2) takes twice as long for its work
      const works = [p.of(0), p.of(2)].map((pace) => (1000 * pace) / (p.of(0) + p.of(2)));
      p.learn([0, 2], works, [works[0] / 10, works[1] / 5]);
    }
    assert.ok(Math.abs(p.of(0) / p.of(2) - 2) < 1e-6, `${p.of(0)} / ${p.of(2)}`);
    assert.ok(Math.abs(p.of(0) + p.of(2) - 2) < 1e-9);
    assert.equal(p.of(1), 1, 'a worker not in the calls keeps its pace');
  });

  test('one call moves a pace part of the way; a worker that paused still gets work', () => {
    const p = paces(2);
    p.learn([0, 1], [100, 100], [1, 1000]);  // worker 1 paused: shown 1000 times slower, taken as 4 times the mean's
    assert.ok(p.of(0) > 1 && p.of(0) < 1.6 && p.of(1) < 1 && p.of(1) > 0.4, `${p.of(0)}, ${p.of(1)}`);
    for (let call = 0; call < 200; call++) p.learn([0, 1], [100, 100], [1, 1000]);
    assert.ok(p.of(0) / p.of(1) <= 16 + 1e-9, `${p.of(0) / p.of(1)}`);
    for (let call = 0; call < 200; call++) p.learn([0, 1], [100, 100], [1, 1]);
    assert.ok(Math.abs(p.of(0) - 1) < 1e-6 && Math.abs(p.of(1) - 1) < 1e-6, 'even again once the workers are');
  });
});

// The calls the pool is checked on: [lead axes, Tq, Tk, D, Dv, options, dtype]
const CASES = [
  [[], 600, 600, 64, 64, {}],
  [[], 601, 601, 64, 64, { causal: true }],
  [[], 513, 700, 64, 64, { causal: true, queryStart: 77 }],
  [[], 700, 1000, 64, 16, { causal: true, queryStart: 0 }],
  [[], 600, 500, 48, 32, {}],
  [[3], 300, 300, 64, 64, { causal: true }],
  [[5], 7, 9, 16, 8, {}],
  [[2, 4], 200, 200, 64, 64, { causal: true }],          // (B, H, T, D): heads over the workers
  [[2, 3], 33, 47, 24, 8, { causal: true, queryStart: 5 }],
  [[4], 302, 304, 64, 64, { causal: true, queryStart: 1 }],
  [[1, 1, 2], 300, 300, 64, 64, {}],
  [[], 500, 520, 64, 64, { causal: true }, 'float64'],
  [[2], 300, 300, 64, 64, {}, 'float64'],
  [[], 400, 420, 64, 64, { steps: true }],
  [[], 90, 95, 16, 16, { steps: true }],
  [[2], 40, 40, 8, 8, { steps: true, causal: true }, 'float64'],
  [[], 1, 1, 1, 1, {}],
  [[], 5, 0, 4, 3, {}],       // no keys: zeros
  [[], 0, 6, 4, 3, { causal: true }],
  [[0, 2], 4, 4, 4, 4, {}],   // an empty batch
  [[], 64, 64, 8, 0, { steps: true }],
];

/** A call of CASES: its inputs (seeded by its sizes), a label, and the plan the core would make of it. */
function caseCall([lead, Tq, Tk, D, Dv, options, dtype = 'float32']) {
  const seed = Tq * 7 + Tk;
  return {
    q: uniformTensor([...lead, Tq, D], dtype, seed),
    k: uniformTensor([...lead, Tk, D], dtype, seed + 1),
    v: uniformTensor([...lead, Tk, Dv], dtype, seed + 2),
    options,
    dtype,
    label: `${dtype} [${lead}] Tq ${Tq} Tk ${Tk} D ${D} Dv ${Dv} ${JSON.stringify(options)}`,
    plan: planOf(lead, Tq, Tk, D, Dv, options, dtype),
  };
}

describe('results: the bits one thread computes', () => {

  test('over many shapes (float32 and float64, causal with queryStart, batches, heads, steps, empty axes)', async () => {
    let split = 0;
    for (const entry of CASES) {
      const { q, k, v, options, label, plan } = caseCall(entry);
      assertSame(await pool.attention(q, k, v, options), so.attention(q, k, v, options), label);
      if (cutRows(plan, WORKERS).length > 1) split++;
    }
    assert.ok(split >= 10, `only ${split} cases were split over several workers`);
  });

  test('out: the output is written there and returned; the inputs are left as they were', async () => {
    for (const [options, Tq] of [[{}, 600], [{ causal: true }, 799], [{ steps: true }, 40], [{}, 3]]) {
      const q = uniformTensor([2, Tq, 32], 'float32', 3);
      const copy = q.data.slice();
      const out = new Float32Array(2 * Tq * 32).fill(NaN);
      const got = await pool.attention(q, q, q, { ...options, out });
      const result = options.steps ? got.output : got;
      assert.equal(result.data, out, 'the very array given as out');
      assertSame(got, so.attention(q, q, q, options), JSON.stringify(options));
      assert.deepEqual(q.data, copy);
    }
  });

  test('an out detached while the call runs: a TypeError naming it, and the pool goes on', async () => {
    const x = uniformTensor([2, 900, 32], 'float32', 8);
    const out = new Float32Array(2 * 900 * 32);
    const pending = pool.attention(x, x, x, { out }).then(() => undefined, (error) => error);
    structuredClone(out.buffer, { transfer: [out.buffer] });  // while the workers compute
    const error = await pending;
    assert.ok(error instanceof TypeError, `${error}`);
    assert.match(error.message, /^out: its buffer was detached/);
    assertSame(await pool.attention(x, x, x), so.attention(x, x, x), 'the next call');
  });

  test('transfer: true moves the inputs\' buffers (one run each, copies for the others): same bits, inputs detached', async () => {
    for (const lead of [[], [4]]) {
      const make = () => ['q', 'k', 'v'].map((_, n) => uniformTensor([...lead, 800, 32], 'float32', 10 + n));
      const want = so.attention(...make(), { causal: true });
      const [q, k, v] = make();
      assertSame(await pool.attention(q, k, v, { causal: true, transfer: true }), want, `[${lead}]`);
      for (const t of [q, k, v]) assert.equal(t.data.length, 0, 'detached');
      // one buffer for q, k and v (self-attention on one array), and an out the pool must not move
      const [x] = make();
      const out = new Float32Array(x.data.length);
      const same = so.attention(x, x, x);
      assertSame(await pool.attention(x, x, x, { transfer: true, out }), same, 'self-attention');
      assert.equal(x.data.length, 0);
      assert.equal(out.length, x.shape.reduce((a, b) => a * b, 1), 'out stays with the caller');
    }
    // an input that shares its buffer with out is copied, never moved
    const shared = new Float32Array(2 * 300 * 16);
    shared.set(uniformTensor([300, 16], 'float32', 4).data);
    const x = { data: shared.subarray(0, 300 * 16), shape: [300, 16] };
    const want = so.attention(x, x, x).data.slice();
    const got = await pool.attention(x, x, x, { transfer: true, out: shared.subarray(300 * 16) });
    assert.ok(Buffer.from(got.data.buffer, got.data.byteOffset, got.data.byteLength).equals(Buffer.from(want.buffer)));
    assert.equal(shared.length, 2 * 300 * 16);
  });

  test('inputs in shared memory (a SharedArrayBuffer) are read in place, not moved', async () => {
    const q = uniformTensor([256, 64], 'float32', 21);
    const shared = new Float32Array(new SharedArrayBuffer(q.data.byteLength));
    shared.set(q.data);
    const x = { data: shared, shape: q.shape };
    assertSame(await pool.attention(x, x, x, { causal: true, transfer: true }), so.attention(q, q, q, { causal: true }), 'shared');
    assert.equal(shared.length, q.data.length);
  });

  test('results stay the caller\'s: later calls (whose copies reuse the buffers that come back) never write into them', async () => {
    for (const [T, options] of [[700, {}], [300, {}], [64, { causal: true }], [40, { steps: true }]]) {
      const calls = Array.from({ length: 6 }, (_, n) => uniformTensor([2, T, 32], 'float32', 40 + n));
      const got = [];
      for (const x of calls) got.push(await pool.attention(x, x, x, options));  // one after another: the same sizes
      calls.forEach((x, n) => assertSame(got[n], so.attention(x, x, x, options), `T ${T} call ${n}`));
      // each the whole of its own buffer, as one thread's (the pool's kept buffers come in size classes, a bit larger)
      for (const result of got)
        for (const t of 'data' in result ? [result] : Object.values(result))
          assert.equal(t.data.buffer.byteLength, t.data.byteLength, `T ${T}: a result's buffer holds more than it`);
    }
  });

  test('sizeClass: at least the size asked, at most a quarter more, few classes', () => {
    const classes = new Set();
    for (let n = 1; n <= 1 << 20; n = Math.ceil(n * 1.01)) {
      const c = sizeClass(n);
      assert.ok(c >= n && c <= 1.25 * n, `${n} → ${c}`);
      if (n >= 1024) classes.add(c);
    }
    assert.ok(classes.size <= 4 * 11, `${classes.size} classes from 1 KiB to 1 MiB`);
    assert.equal(sizeClass(1000), 1024);
    assert.equal(sizeClass(4096), 4096);
  });

  test('many calls at once, of different shapes, each get their own results', async () => {
    const calls = Array.from({ length: 24 }, (_, n) => {
      const T = 16 + 37 * n;
      const t = uniformTensor([T, 16], n % 3 ? 'float32' : 'float64', n);
      return [t, t, t, { causal: n % 2 === 0 }];
    });
    const got = await Promise.all(calls.map((args) => pool.attention(...args)));
    got.forEach((result, n) => assertSame(result, so.attention(...calls[n]), `call ${n}`));
  });
});

describe('errors: so.attention\'s, class and message, before any worker is involved', () => {
  const f = (shape, dtype = 'float32') => uniformTensor(shape, dtype, 5);
  const q = f([2, 3, 4]);
  const k = f([2, 5, 4]);
  const v = f([2, 5, 6]);
  const detached = () => {
    const data = new Float32Array(4);
    structuredClone(data.buffer, { transfer: [data.buffer] });
    return { data, shape: [2, 2] };
  };
  const BAD = [
    [undefined, k, v], [null, k, v], [3, k, v], [q.data, k, v], [{ ...q, data: [1, 2] }, k, v],
    [{ ...q, data: new Int16Array(24) }, k, v], [{ ...q, shape: '2,3,4' }, k, v], [{ ...q, shape: [2, 3, '4'] }, k, v],
    [{ ...q, shape: [2, -3, 4] }, k, v], [{ ...q, shape: [2, 3.5, 4] }, k, v], [{ ...q, dtype: 'float16' }, k, v],
    [{ ...q, dtype: 'float64' }, k, v], [{ data: new Int32Array(24), shape: [2, 3, 4] }, k, v], [detached(), k, v],
    [{ ...q, shape: [2, 3, 5] }, k, v], [q, f([2, 5, 4], 'float64'), v], [f([3, 4]), k, v], [q, f([1, 5, 4]), v],
    [q, k, f([3, 5, 6])], [q, f([2, 5, 3]), v], [f([2, 3, 0]), f([2, 5, 0]), v], [q, k, f([2, 4, 6])], [f([12]), f([12]), f([12])],
    [q, k, v, null], [q, k, v, 5], [q, k, v, []], [q, k, v, new Map()], [q, k, v, { strat: 1 }], [q, k, v, { Causal: true }],
    [q, k, v, { causal: 1 }], [q, k, v, { steps: 'yes' }], [q, k, v, { queryStart: 1 }], [q, k, v, { causal: true, queryStart: '1' }],
    [q, k, v, { causal: true, queryStart: -2 }], [q, k, v, { causal: true, queryStart: 3 }], [q, k, v, { causal: true, queryStart: 1.5 }],
    [q, k, v, { causal: true, queryStart: NaN }], [f([2, 6, 4]), k, v, { causal: true }], [f([1, 4]), f([0, 4]), f([0, 2]), { causal: true }],
    [q, k, v, { out: [0] }], [q, k, v, { out: new Float64Array(36) }], [q, k, v, { out: new Float32Array(35) }],
    [q, k, v, { out: new Float32Array(37), steps: true }], [q, k, v, { out: new DataView(new ArrayBuffer(144)) }],
    [f([2 ** 18, 1], 'float64'), f([1, 1], 'float64'), f([1, 2 ** 10], 'float64')],
    [f([2 ** 14, 1], 'float64'), f([2 ** 14, 1], 'float64'), f([2 ** 14, 1], 'float64'), { steps: true }],
  ];

  test('every bad call rejects with what so.attention throws', async () => {
    for (const [n, args] of BAD.entries()) {
      let want;
      try {
        so.attention(...args);
      } catch (error) {
        want = error;
      }
      assert.ok(want, `case ${n}: so.attention accepted it`);
      const called = pool.attention(...args);  // a throw here fails the test
      assert.ok(called instanceof Promise, 'a rejected promise, never a throw');
      const got = await called.then(() => undefined, (error) => error);
      assert.ok(got, `case ${n}: the pool accepted ${want.message}`);
      assert.equal(got.constructor, want.constructor, `case ${n}: ${got.message}`);
      // the pool knows one option more: its list of known options says so
      assert.equal(got.message, want.message.replace('steps, out)', 'steps, out, transfer)'), `case ${n}`);
    }
  });

  test('a call like the last one accepted but in one field is checked anew (the planner keeps only accepted plans)', async () => {
    const x = f([2, 8, 4]);
    const ok = [x, x, x, { causal: true, queryStart: 0, out: new Float32Array(64) }];
    const variants = [
      [x, x, x, { causal: true, queryStart: 1, out: new Float32Array(64) }],
      [x, x, x, { causal: true, queryStart: 0, out: new Float32Array(63) }],
      [x, { ...x, data: new Float32Array(63) }, x, { causal: true, queryStart: 0 }],
      [x, { ...x, dtype: 'float64', data: new Float64Array(64) }, x, { causal: true, queryStart: 0 }],
      [x, f([2, 7, 4]), x, { causal: true, queryStart: 0 }],
    ];
    for (const [n, args] of variants.entries()) {
      const want = so.attention(...ok);
      assertSame(await pool.attention(...ok), want, `accepted before variant ${n}`);
      assert.throws(() => so.attention(...args), `variant ${n}: so.attention accepts it`);
      let thrown;
      try {
        so.attention(...args);
      } catch (error) {
        thrown = error;
      }
      await assert.rejects(pool.attention(...args), (error) => error.constructor === thrown.constructor && error.message === thrown.message);
    }
    // the shapes a result hands out are the caller's own: changing one changes no later result
    const first = await pool.attention(x, x, x);
    first.shape.push(99);
    assert.deepEqual((await pool.attention(x, x, x)).shape, [2, 8, 4]);
  });

  test('transfer must be true or false', async () => {
    const x = f([4, 4]);
    await assert.rejects(pool.attention(x, x, x, { transfer: 1 }), { name: 'TypeError', message: 'transfer must be true or false, got number 1' });
  });

  test('loadSeqorderPool checks its options', async () => {
    await assert.rejects(loadSeqorderPool({ workers: 0 }), { name: 'RangeError', message: /^options\.workers must be an integer between 1 and 256, got 0/ });
    await assert.rejects(loadSeqorderPool({ workers: 1.5 }), { name: 'RangeError', message: /^options\.workers must be an integer/ });
    await assert.rejects(loadSeqorderPool({ workers: '2' }), { name: 'TypeError', message: /^options\.workers must be a number/ });
    await assert.rejects(loadSeqorderPool({ threads: 2 }), { name: 'TypeError', message: /^options: unknown option 'threads' \(known: workers, callingThread, sharedMemory, workerUrl, simd, wasmUrl, wasmBinary, modelWasmUrl, modelWasmBinary\)/ });
    await assert.rejects(loadSeqorderPool({ sharedMemory: 1 }), { name: 'TypeError', message: /^options\.sharedMemory must be true or false, got number 1/ });
    const bytes = readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm'));
    const byBytes = await loadSeqorderPool({ wasmBinary: bytes, workers: 1 });
    const x300 = uniformTensor([300, 32], 'float32', 6);
    assert.deepEqual((await byBytes.attention(x300, x300, x300)).data, so.attention(x300, x300, x300).data, 'a pool of the module given as bytes');
    await byBytes.close();
    await assert.rejects(loadSeqorderPool({ simd: 'avx' }), { name: 'RangeError', message: /^options\.simd must be one of/ });
    await assert.rejects(loadSeqorderPool({ wasmUrl: 'nowhere/seqorder_core.wasm' }), /could not be loaded from file:.*nowhere/);
    // workerUrl: a string or URL, a file in node; a script that is not there names itself and the option
    await assert.rejects(loadSeqorderPool({ workerUrl: 5 }), { name: 'TypeError', message: /^options\.workerUrl must be a string or a URL/ });
    await assert.rejects(loadSeqorderPool({ workerUrl: 'https://cdn.example/pool-worker.mjs' }), { name: 'RangeError', message: /^options\.workerUrl must be a file in node \(a path, or a file: URL\), got https:\/\/cdn\.example\/pool-worker\.mjs/ });
    await assert.rejects(loadSeqorderPool({ workerUrl: 'nowhere/pool-worker.mjs', workers: 1 }),
      { name: 'Error', message: /^seqorder pool: its workers could not start from file:\/\/.*\/nowhere\/pool-worker\.mjs \(worker 0 stopped: .*\)\. Serve the package's pool\/seqorder\/pool-worker\.mjs there .*loadSeqorderPool\(\{ workerUrl/ });
    const given = await loadSeqorderPool({ workerUrl: pathToFileURL(path.join(lib, 'pool', 'seqorder', 'pool-worker.mjs')), workers: 1 });
    const x = uniformTensor([300, 32], 'float32', 5);
    assert.deepEqual((await given.attention(x, x, x)).data, so.attention(x, x, x).data, 'a pool of the worker script given');
    await given.close();
  });

  test('the pool reports what it runs', () => {
    assert.equal(pool.workers, WORKERS);
    assert.equal(pool.sharedMemory, false, 'the workers share no memory: the pool copies');
    assert.equal(pool.build, 'simd128');
    assert.equal(pool.version, so.version);
    assert.ok(Object.isFrozen(pool));
  });
});

test("simd: 'relaxed': the workers run the relaxed modules (main and model), with its bits (node started with relaxed SIMD)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-pool-'));
  const script = path.join(dir, 'relaxed.mjs');
  writeFileSync(script, `
import { loadSeqorder } from ${JSON.stringify(pathToFileURL(path.join(lib, 'model-entry.mjs')).href)};
import { loadSeqorderPool } from ${JSON.stringify(pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href)};
const so = await loadSeqorder({ simd: 'relaxed' });
const pool = await loadSeqorderPool({ simd: 'relaxed', workers: 2 });
const x = { data: Float32Array.from({ length: 700 * 64 }, (_, n) => Math.sin(n)), shape: [700, 64] };
const a = so.attention(x, x, x, { causal: true }).data;
const b = (await pool.attention(x, x, x, { causal: true })).data;
// a model of the relaxed model module (a model module of another build than the main one's is refused), here and in a worker
const { ids, targets } = so.orderTask({ count: 8, length: 10, seed: 3 });
const options = { vocab: so.taskWords.length, width: 32, heads: 2, classes: 2, seed: 5 };
const model = so.createModel(options);
const handle = await pool.createModel(options);
const losses = [[], []];
for (let n = 0; n < 3; n++) losses[0].push(model.step(ids, targets, { lr: 3e-3 })), losses[1].push(await handle.step(ids, targets, { lr: 3e-3 }));
console.log(JSON.stringify({ builds: [so.build, pool.build], shared: pool.sharedMemory, same: Buffer.from(a.buffer).equals(Buffer.from(b.buffer)), models: Object.is(losses[0][2], losses[1][2]) && losses[0].every((l, n) => Object.is(l, losses[1][n])) }));
await pool.close();
`);
  const child = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', script], { encoding: 'utf8', timeout: 30_000 });
  rmSync(dir, { recursive: true, force: true });
  assert.equal(child.status, 0, child.stderr);
  assert.deepEqual(JSON.parse(child.stdout), { builds: ['relaxed', 'relaxed'], shared: false, same: true, models: true });
});

test('sharedMemory: true rejects with the Error a pool that could not share memory gave, saying the pool copies; false is the pool', async () => {
  await assert.rejects(loadSeqorderPool({ workers: 1, sharedMemory: true }), (error) => error.constructor === Error &&
    /^seqorder pool: options\.sharedMemory: true, but the workers cannot share memory: the pool copies .*see https:\/\/\S+\/docs\/pool\.md#one-way-of-moving-the-work-copies$/.test(error.message));
  const given = await loadSeqorderPool({ workers: 2, sharedMemory: false });
  const x = uniformTensor([2, 300, 32], 'float32', 7);
  assertSame(await given.attention(x, x, x, { causal: true }), so.attention(x, x, x, { causal: true }), 'sharedMemory: false');
  assert.equal(given.sharedMemory, false);
  await given.close();
});

test('a pool makes no instance of the module on this thread, which made one, until a call needs it to check', async () => {
  // (a WebAssembly memory each: JavaScriptCore gives a process 8 with their address space reserved, and the others
  // run slower; a pool that only trains models needs none here)
  const made = [];
  const { Instance, instantiate } = WebAssembly;
  WebAssembly.instantiate = function counted(...args) {
    made.push('instantiate');
    return instantiate.apply(this, args);
  };
  WebAssembly.Instance = new Proxy(Instance, {
    construct(target, args) {
      made.push('Instance');
      return Reflect.construct(target, args);
    },
  });
  try {
    const own = await loadSeqorderPool({ workers: 1 });
    assert.deepEqual(made, [], 'none at load');
    assert.equal(own.build, so.build);
    const x = uniformTensor([40, 16], 'float32', 3);
    assertSame(await own.attention(x, x, x), so.attention(x, x, x), 'its first call');
    assert.deepEqual(made, ['Instance'], 'one, made by the first call, at once');
    assertSame(await own.attention(x, x, x, { causal: true }), so.attention(x, x, x, { causal: true }), 'the next');
    assert.equal(made.length, 1);
    await own.close();
  } finally {
    WebAssembly.instantiate = instantiate;
    WebAssembly.Instance = Instance;
  }
});

describe('callingThread: this thread computes a share of each call', () => {
  let calling;
  let requests = 0;  // the runs sent to its workers, by message or through their exchanges
  let exchanged = 0;  // of those, the runs handed through an exchange
  let killNext = false;  // kills the worker of the next run handed through its exchange, at once
  before(async () => {
    calling = await loadSeqorderPool({ workers: 2, callingThread: true });
    const set = workersOf(calling);
    const { request, expect } = set;
    set.request = (...args) => {
      if (args[1] === 'attention') requests++;
      return request.apply(set, args);
    };
    set.expect = (index) => {
      requests++;
      exchanged++;
      const expected = expect.call(set, index);
      if (killNext) {
        killNext = false;
        set.kill(index);
      }
      return expected;
    };
  });
  after(() => calling?.close());

  test('the bits one thread computes, over every shape, the calls that split sent to the workers', async () => {
    for (const entry of CASES) {
      const { q, k, v, options, dtype, label, plan } = caseCall(entry);
      const before = requests;
      const want = so.attention(q, k, v, options);
      assertSame(await calling.attention(q, k, v, options), want, label);
      const runs = cutRows(plan, 3).length;
      assert.equal(requests - before, Math.max(0, runs - 1), `${label}: ${runs} runs, one of them here`);
      // into out: written in place by this thread where its run is one call, laid there with the parts where not
      const out = new DTYPES[dtype]((options.steps ? want.output : want).data.length).fill(NaN);
      const got = await calling.attention(q, k, v, { ...options, out });
      assert.equal((options.steps ? got.output : got).data, out, `${label}: out`);
      assertSame(got, want, `${label}, into out`);
    }
  });

  test('a call too small to split is computed here alone, with no message; out, steps and the results\' buffers as the pool\'s', async () => {
    const x = uniformTensor([2, 50, 16], 'float32', 9);
    const before = requests;
    const out = new Float32Array(2 * 50 * 16);
    const got = await calling.attention(x, x, x, { causal: true, out });
    assert.equal(got.data, out);
    assertSame(got, so.attention(x, x, x, { causal: true }), 'into out');
    assertSame(await calling.attention(x, x, x, { steps: true }), so.attention(x, x, x, { steps: true }), 'steps');
    assert.equal(requests, before, 'no worker asked');
    // results stay the caller's: later calls of the same sizes never write into them
    const first = await calling.attention(x, x, x);
    const copy = first.data.slice();
    for (let n = 0; n < 3; n++) await calling.attention(uniformTensor([2, 50, 16], 'float32', 20 + n), x, x);
    assert.deepEqual(first.data, copy);
  });

  test('an out that overlaps an input\'s later items: the bits of one thread, which reads every input before writing', async () => {
    // five items of 300 rows in three runs: this thread's, the first, ends inside item 1 (two calls, item 0's first)
    const T = 300;
    const item = T * 32;
    const buffer = new Float32Array(6 * item);
    buffer.set(uniformTensor([5, T, 32], 'float32', 12).data);
    const x = { data: buffer.subarray(0, 5 * item), shape: [5, T, 32] };
    const copy = { data: x.data.slice(), shape: x.shape };
    const want = so.attention(copy, copy, copy).data;
    const out = buffer.subarray(item);  // item b of the output is item b + 1 of x
    const got = await calling.attention(x, x, x, { out });
    assert.equal(got.data, out);
    assert.ok(Buffer.from(out.buffer, out.byteOffset, out.byteLength).equals(Buffer.from(want.buffer)));
  });

  test('transfer: true moves nothing (this thread reads the inputs); the inputs are left as they were', async () => {
    const make = () => ['q', 'k', 'v'].map((_, n) => uniformTensor([4, 800, 32], 'float32', 30 + n));
    const want = so.attention(...make(), { causal: true });
    const [q, k, v] = make();
    const copies = [q, k, v].map((t) => t.data.slice());
    assertSame(await calling.attention(q, k, v, { causal: true, transfer: true }), want, 'transfer');
    [q, k, v].forEach((t, n) => assert.deepEqual(t.data, copies[n]));
  });

  test('a bad call rejects with so.attention\'s error, and the pool goes on', async () => {
    const x = uniformTensor([300, 32], 'float32', 2);
    await assert.rejects(calling.attention(x, x, uniformTensor([299, 32], 'float32', 1)), (error) => {
      assert.throws(() => so.attention(x, x, uniformTensor([299, 32], 'float32', 1)), { name: error.name, message: error.message });
      return true;
    });
    assertSame(await calling.attention(x, x, x), so.attention(x, x, x), 'the next call');
  });

  test('the runs go through the workers\' exchanges (shared memory, no message) once each worker has its own; with steps, by message', async () => {
    const x = uniformTensor([2, 700, 64], 'float32', 40);
    const want = so.attention(x, x, x, { causal: true });
    assertSame(await calling.attention(x, x, x, { causal: true }), want, 'first');  // (a run that needs a larger arena goes by message)
    const before = { requests, exchanged };
    for (let n = 0; n < 3; n++) assertSame(await calling.attention(x, x, x, { causal: true }), want, `call ${n}`);
    const runs = cutRows(planOf([2], 700, 700, 64, 64, { causal: true }), 3).length;
    assert.equal(runs, 3);
    assert.equal(exchanged - before.exchanged, 3 * (runs - 1), 'every worker\'s run through its exchange');
    assert.equal(requests - before.requests, exchanged - before.exchanged, 'no message');
    const steps = { requests, exchanged };
    assertSame(await calling.attention(x, x, x, { steps: true }), so.attention(x, x, x, { steps: true }), 'steps');
    assert.equal(exchanged, steps.exchanged, 'steps go by message');
    assert.equal(requests - steps.requests, runs - 1);
  });

  test('calls at once: a worker busy with one call\'s run gets the others\' by message; each call gets its own bits', async () => {
    const inputs = [0, 1, 2, 3].map((n) => uniformTensor([900, 64], 'float32', 50 + n));
    const got = await Promise.all(inputs.map((x) => calling.attention(x, x, x)));
    got.forEach((result, n) => assertSame(result, so.attention(inputs[n], inputs[n], inputs[n]), `call ${n}`));
  });

  test('a worker that ends while its run is in its exchange: the call rejects saying so; its successor gets an exchange of its own', async () => {
    const x = uniformTensor([1500, 64], 'float32', 60);
    await calling.attention(x, x, x);
    killNext = true;
    const before = exchanged;
    await assert.rejects(calling.attention(x, x, x), (error) => error.constructor === Error &&
      /^seqorder pool: worker \d stopped: it was killed\. The calls it was running failed; a new worker is starting in its place\.$/.test(error.message));
    assert.equal(killNext, false, 'a run went through an exchange');
    for (let n = 0; n < 3; n++) assertSame(await calling.attention(x, x, x), so.attention(x, x, x), `after the kill, call ${n}`);
    assert.ok(exchanged - before >= 3, 'the new worker\'s runs go through its exchange again');
    assert.equal(workersOf(calling).closed, null);
  });

  test('its options: callingThread true or false; workers then default to the cores but one (at least one)', async () => {
    assert.equal(calling.callingThread, true);
    assert.equal(calling.workers, 2);
    assert.equal(pool.callingThread, false);
    await assert.rejects(loadSeqorderPool({ callingThread: 1 }), { name: 'TypeError', message: /^options\.callingThread must be true or false, got number 1/ });
    const byDefault = await loadSeqorderPool({ callingThread: true });
    assert.equal(byDefault.workers, Math.max(1, availableParallelism() - 1));
    await byDefault.close();
  });
});

describe('failures', () => {
  test('a killed worker rejects its pending call with a clear Error; a new worker takes its place', async () => {
    const x = uniformTensor([1500, 64], 'float32', 8);
    const pending = pool.attention(x, x, x);
    workersOf(pool).kill(1);
    await assert.rejects(pending, (error) => error.constructor === Error &&
      /^seqorder pool: worker 1 stopped: it was killed\. The calls it was running failed; a new worker is starting in its place\.$/.test(error.message));
    for (let n = 0; n < 3; n++) assertSame(await pool.attention(x, x, x), so.attention(x, x, x), `after the kill, call ${n}`);
    assert.equal(workersOf(pool).closed, null);
  });

  test('close() rejects the calls pending and every later call', async () => {
    const own = await loadSeqorderPool({ workers: 2 });
    const x = uniformTensor([1200, 64], 'float32', 9);
    const pending = assert.rejects(own.attention(x, x, x), { message: /^seqorder pool: the pool was closed \(it was closed\) with this call pending/ });
    await own.close();
    await pending;
    await assert.rejects(own.attention(x, x, x), { message: /^seqorder pool: the pool is closed \(it was closed\): load a new one with loadSeqorderPool\(\)/ });
    await own.close();  // twice is fine
    // wrong arguments are still reported as such
    await assert.rejects(own.attention(x, x), { name: 'TypeError', message: /^v must be a tensor/ });
  });
});

describe('the protocol (pool/protocol.mjs) with a worker that fails in every way', () => {
  const script = new URL('./helpers/pool-test-worker.mjs', import.meta.url);
  const start = () => new Worker(script);
  const counter = () => new SharedArrayBuffer(4);

  test('answers, moved buffers, errors of the same class and message', async () => {
    const set = await startWorkers({ count: 2, start, first: { op: 'load', args: { counter: counter() } } });
    try {
      const data = Float64Array.of(1, 2, 3);
      const answer = await set.request(1, 'echo', { data }, [data.buffer]);
      assert.equal(data.length, 0, 'moved to the worker');
      assert.deepEqual([...answer.data], [1, 2, 3]);
      const other = await set.request(0, 'echo', { data: new Float32Array(1) });
      assert.deepEqual(new Set([answer.id, other.id]), new Set([0, 1]), 'two workers');
      await assert.rejects(set.request(0, 'fail', { name: 'RangeError', message: 'out of range' }), (e) => e.constructor === RangeError && e.message === 'out of range');
      await assert.rejects(set.request(0, 'fail', { name: 'TypeError', message: 'a kind' }), (e) => e.constructor === TypeError);
      await assert.rejects(set.request(0, 'fail', { name: 'SyntaxError', message: 'odd' }), (e) => e.constructor === Error && e.name === 'SyntaxError');
      await assert.rejects(set.request(0, 'nothing'), { message: "seqorder pool worker: no op 'nothing'" });
      await assert.rejects(set.request(0, 'echo', { data: () => {} }), { name: 'DataCloneError' });
      assert.equal(set.idlest(new Set([0])), 1);
      // an op's reports reach onReport in order, before its answer; a request without onReport ignores them
      const reports = [];
      assert.equal(await set.request(1, 'count', { n: 4 }, [], (news) => reports.push(news)), 4);
      assert.deepEqual(reports.slice(0, 3), [1, 2, 3]);
      assert.ok(reports[3] instanceof Float64Array && reports[3][0] === 4, 'a report moves its buffers');
      assert.equal(await set.request(1, 'count', { n: 3 }), 3);
      // an op's own errors are not the worker's failure
      const opError = await set.request(0, 'fail', { name: 'Error', message: 'its own' }).catch((e) => e);
      assert.equal(workerFailed(opError), false);
    } finally {
      await set.close();
    }
  });

  test('expect(): work handed some other way is pending as a request is: settled by the caller, rejected by the error posted for it or by its worker\'s end', async () => {
    const set = await startWorkers({ count: 1, start, first: { op: 'load', args: { counter: counter() } } });
    try {
      const ok = set.expect(0);
      assert.equal(set.idle(0), false);
      assert.equal(await set.request(0, 'later', { id: ok.id }), 'queued');  // its work succeeds: nothing is posted
      ok.settle('done');
      assert.equal(await ok.answer, 'done');
      assert.equal(set.idle(0), true);
      const bad = set.expect(0);
      await set.request(0, 'later', { id: bad.id, fail: true });
      await assert.rejects(bad.answer, (e) => e.constructor === RangeError && e.message === 'late failure');
      bad.settle('too late');  // nothing: it was answered
      assert.equal(set.idle(0), true);
      const dying = set.expect(0);
      set.kill(0);
      await assert.rejects(dying.answer, (e) => workerFailed(e) && /^seqorder pool: worker 0 stopped: it was killed/.test(e.message));
    } finally {
      await set.close();
    }
    const closed = set.expect(0);
    await assert.rejects(closed.answer, { message: /^seqorder pool: the pool is closed/ });
  });

  test('a worker that exits, throws outside an op, stops or closes its port: its calls reject, a new one takes its place', async () => {
    const set = await startWorkers({ count: 2, start, first: { op: 'load', args: { counter: counter() } } });
    try {
      const exiting = set.request(0, 'exit', { code: 3 });
      const waiting = set.request(0, 'wait', { ms: 5000 });  // queued behind the exit
      await Promise.all([waiting, exiting].map((pending) => assert.rejects(pending,
        { message: /^seqorder pool: worker 0 stopped: it exited with code 3\. The calls it was running failed; a new worker is starting in its place\./ })));
      assert.equal(workerFailed(await exiting.catch((e) => e)), true, "a dead worker's error says so");
      assert.equal((await set.request(0, 'echo', { data: new Float32Array(1) })).id, 2, 'worker 0 is the third one started');

      const late = set.request(1, 'throwLater');
      assert.equal(await late, 'thrown later');
      await assert.rejects(set.request(1, 'wait', { ms: 5000 }), { message: /^seqorder pool: worker 1 stopped: an uncaught Error: thrown outside any op\./ });
      assert.equal((await set.request(1, 'echo', { data: new Float32Array(1) })).id, 3);

      await assert.rejects(set.request(0, 'stop'), { message: 'the instance stopped' });
      assert.equal((await set.request(0, 'echo', { data: new Float32Array(1) })).id, 4, 'a worker whose instance stopped is replaced');

      // one that closes its port (no error): it ends, and its calls, the one queued behind too, reject saying so
      const closing = set.request(1, 'closePort');
      const queued = set.request(1, 'echo', { data: new Float32Array(1) });
      await Promise.all([closing, queued].map((pending) => assert.rejects(pending,
        { message: /^seqorder pool: worker 1 stopped: it exited with code 0\. The calls it was running failed; a new worker is starting in its place\./ })));
      assert.equal((await set.request(1, 'echo', { data: new Float32Array(1) })).id, 5);
      assert.equal(set.closed, null);
    } finally {
      await set.close();
    }
  });

  test('close(): a second call resolves, as the first, once every worker has ended (also after the set closed itself)', async () => {
    for (const closeItself of [false, true]) {
      const exits = [];
      const watched = () => {
        const worker = start();
        exits.push(new Promise((resolve) => worker.once('exit', () => resolve('ended'))));
        return worker;
      };
      const set = await startWorkers({ count: 2, start: watched, first: { op: 'load', args: { counter: counter(), failFrom: closeItself ? 2 : undefined } } });
      if (closeItself) {  // worker 0 exits, its replacement refuses to load: the set closes itself
        await assert.rejects(set.request(0, 'exit', { code: 1 }));
        for (let n = 0; n < 100 && !set.closed; n++) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(set.closed);
      } else {
        set.close();
      }
      await set.close();
      const now = await Promise.all(exits.map((exit) => Promise.race([exit, 'running'])));
      assert.deepEqual(now, exits.map(() => 'ended'), `every worker has ended when the second close() resolves (closeItself: ${closeItself})`);
    }
  });

  test('a worker that cannot start fails the start; one that cannot be replaced closes the set', async () => {
    await assert.rejects(startWorkers({ count: 2, start, first: { op: 'load', args: { counter: counter(), failFrom: 1 } } }),
      { message: 'worker 1 refuses to load' });
    const set = await startWorkers({ count: 2, start, first: { op: 'load', args: { counter: counter(), failFrom: 2 } } });
    await assert.rejects(set.request(0, 'exit', { code: 1 }), /worker 0 stopped: it exited with code 1/);
    for (let n = 0; n < 100 && !set.closed; n++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(set.closed ?? '', /the pool is closed \(worker 0 stopped \(it exited with code 1\) and could not be replaced \(worker 2 refuses to load\)\)/);
    await assert.rejects(set.request(1, 'echo', { data: new Float32Array(1) }), /the pool is closed/);
    assert.equal(workerFailed(await set.request(1, 'echo', { data: new Float32Array(1) }).catch((e) => e)), true);
  });
});

describe('no worker outlives its use', () => {
  const packageUrl = pathToFileURL(path.join(lib, 'pool', 'index.mjs')).href;
  const run = (code) => spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20_000 });
  const program = (close) => `
import { loadSeqorderPool } from ${JSON.stringify(packageUrl)};
const pool = await loadSeqorderPool({ workers: 2 });
const x = { data: new Float32Array(600 * 32).fill(0.5), shape: [600, 32] };
const y = await pool.attention(x, x, x, { causal: true });
console.log(y.shape.join('x'), y.data[0]);
${close ? 'await pool.close();' : ''}
`;

  test("docs/pool.md's first example runs as written and prints what it says", () => {
    const doc = readFileSync(new URL('../../docs/pool.md', import.meta.url), 'utf8');
    const example = doc.match(/```js\n([\s\S]*?)```/)[1];
    const child = run(example.replace("from 'seqorder/pool'", `from ${JSON.stringify(packageUrl)}`));
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), `${availableParallelism()} [ 2048, 64 ]`);
  });

  for (const close of [true, false]) {
    test(`a node process that ${close ? 'closes its pool' : 'leaves its idle pool open'} exits by itself`, () => {
      const started = Date.now();
      const child = run(program(close));
      assert.equal(child.error, undefined, `it did not exit within 20 s: ${child.error?.message}`);
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), '600x32 0.5');
      assert.ok(Date.now() - started < 10_000, `it took ${Date.now() - started} ms`);
    });
  }

  test('a pending call keeps the process alive until it is answered', () => {
    const child = run(`
import { loadSeqorderPool } from ${JSON.stringify(packageUrl)};
const pool = await loadSeqorderPool({ workers: 1 });
const x = { data: new Float32Array(1000 * 64).fill(0.5), shape: [1000, 64] };
pool.attention(x, x, x).then((y) => console.log('answered', y.shape.join('x')));
`);
    assert.equal(child.status, 0, child.stderr);
    assert.equal(child.stdout.trim(), 'answered 1000x64');
  });
});
