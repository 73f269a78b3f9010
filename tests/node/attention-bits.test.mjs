// The float32 attention's exact bits through the public API, against numpy's float32 replica of the fused kernel's
// operations (tests/fixtures/make_attention_bits.py): the WebAssembly module and the pool's workers must give them
// bit for bit, as the native build does (tests/native/test_attention_fast.cpp).
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { loadSeqorder, loadSeqorderPool } from './helpers/load.mjs';
import { readFixtures } from '../fixtures/read.mjs';

const so = await loadSeqorder();
// Regenerate: /usr/bin/python3 tests/fixtures/make_attention_bits.py
const fixtures = readFixtures('attention_bits.txt');
const cases = [];
for (let c = 0; fixtures.has(`attention_bits/${c}/q`); c++) {
  const tensor = (name) => {
    const { shape, values } = fixtures.get(`attention_bits/${c}/${name}`);
    return { data: Float32Array.from(values), shape, dtype: 'float32' };
  };
  const causal = fixtures.get(`attention_bits/${c}/options`).values[0] !== 0;
  cases.push({ label: `case ${c}${causal ? ', causal' : ''}`, q: tensor('q'), k: tensor('k'), v: tensor('v'), causal, want: tensor('output') });
}

/** How many elements of a and b differ in any bit, and the first of them. */
function differing(got, want) {
  const a = new Uint32Array(got.buffer, got.byteOffset, got.length);
  const b = new Uint32Array(want.buffer, want.byteOffset, want.length);
  assert.equal(a.length, b.length);
  let count = 0, first = -1;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && count++ === 0) first = i;
  return { count, first };
}

function assertBits(got, want, label) {
  assert.deepEqual(got.shape, want.shape, label);
  const { count, first } = differing(got.data, want.data);
  assert.equal(count, 0, `${label}: ${count} elements differ, the first at ${first}: ${got.data[first]} against ${want.data[first]}`);
}

test('the fixtures hold the cases the script writes', () => {
  assert.ok(cases.length >= 6);
  assert.ok(cases.some((c) => c.causal) && cases.some((c) => !c.causal));
});

test("so.attention gives numpy's float32 replica of the kernel's operations, bit for bit", () => {
  for (const { label, q, k, v, causal, want } of cases) assertBits(so.attention(q, k, v, { causal }), want, label);
});

test('the pool gives the same bits', async () => {
  const pool = await loadSeqorderPool({ workers: 2 });
  after(() => pool.close());
  for (const { label, q, k, v, causal, want } of cases) assertBits(await pool.attention(q, k, v, { causal }), want, label);
});
