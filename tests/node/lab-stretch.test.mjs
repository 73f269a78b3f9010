// "Stretch it" (web/js/lab/stretch.mjs): the frequencies the bench page draws against bench/position_schemes.py's
// (tests/fixtures/rope-frequencies.json, made by make_rope_frequencies.py: Hugging Face's formulas in float64), YaRN's
// parts at a head width, and the stretch's sentences, which hold on their table and fail on another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { siteModule } from './helpers/load.mjs';
const { ropeFrequencies, ropeScaling, yarnParts } = await siteModule('js/lab/stretch.mjs');
const { stretchClaims } = await siteModule('js/lab/stretch-claims.mjs');

const cases = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/rope-frequencies.json', import.meta.url)), 'utf8'));

test('the drawn frequencies are position_schemes.py\'s within 2 ulps (V8\'s pow and libm\'s differ in the last bit), the temperature exactly', () => {
  assert.ok(cases.length > 400);
  let exact = 0;
  for (const c of cases) {
    const { frequencies, temperature } = ropeFrequencies(c.pairs, c.base, c.scaling);
    assert.equal(frequencies.length, c.pairs);
    c.frequencies.forEach((f, i) => {
      assert.ok(Math.abs(frequencies[i] - f) <= 4.5e-16 * f, `${JSON.stringify(c.scaling)} pairs ${c.pairs} base ${c.base} pair ${i}: ${frequencies[i]} vs ${f}`);
      exact += frequencies[i] === f;
    });
    assert.equal(temperature, c.temperature);
  }
  assert.ok(exact > 0.9 * cases.reduce((n, c) => n + c.pairs, 0));
  // a sabotaged formula fails: ntk's exponent d / (d − 2) taken as 1
  const ntk = cases.find((c) => c.scaling?.method === 'ntk' && c.pairs === 8 && c.scaling.factor === 4);
  const wrong = Float64Array.from({ length: 8 }, (_, i) => 1 / (ntk.base * 4) ** ((2 * i) / 16));
  assert.ok(wrong.some((f, i) => Math.abs(f - ntk.frequencies[i]) > 1e-6 * ntk.frequencies[i]));
});

test('YaRN\'s parts: the pairs it keeps, blends and interpolates add up, and at the bench\'s head width it keeps the fastest', () => {
  for (const c of cases.filter((x) => x.scaling?.method === 'yarn' && x.scaling.factor > 1)) {
    const parts = yarnParts(c.pairs, c.base, c.scaling.originalLength);
    assert.equal(parts.kept + parts.blended + parts.interpolated, c.pairs);
    // a kept pair has its frequency unchanged, an interpolated one divided by the factor
    const plain = ropeFrequencies(c.pairs, c.base, null).frequencies;
    const kept = c.frequencies.filter((f, i) => Math.abs(f - plain[i]) <= 1e-15 * plain[i]).length;
    const divided = c.frequencies.filter((f, i) => Math.abs(f - plain[i] / c.scaling.factor) <= 1e-15 * plain[i]).length;
    assert.equal(kept, parts.kept, JSON.stringify(c));
    assert.equal(divided, parts.interpolated, JSON.stringify(c));
  }
  assert.deepEqual(yarnParts(8, 10000, 16), { kept: 1, blended: 0, interpolated: 7 });
  assert.deepEqual(ropeScaling({ longest: 16 }, 'yarn', 4), { method: 'yarn', factor: 4, originalLength: 16 });
  assert.deepEqual(ropeScaling({ longest: 16 }, 'ntk', 4), { method: 'ntk', factor: 4 });
});

test('a stretch\'s sentences hold on the table they were written from and fail on another', () => {
  const view = {
    lengths: [8, 12, 16, 32, 64, 128], length: 64, longest: 16, chance: 1 / 16, tune: 50, method: 'ntk', factor: 4,
    rows: { trained: [1, 1, 1, 0.92, 0.76, 0.64], zeroShot: [1, 1, 1, 1, 0.64, 0.5], tuned: [1, 1, 1, 1, 1, 0.9], plain: [1, 1, 1, 1, 0.98, 0.9] },
  };
  const claims = stretchClaims(view, 'rotary (seed 1)');
  assert.deepEqual(claims.map((c) => c.name), ['stretch-zero', 'stretch-tuned']);
  assert.match(claims[0].text, /zero-shot: 64% at 64 words \(as trained: 76%\)/);
  assert.match(claims[1].text, /no difference this run can tell/);
  for (const c of claims) assert.equal(c.holds({ stretch: view }), true);
  const moved = structuredClone(view);
  moved.rows.tuned[4] = 0.5;
  assert.equal(claims[1].holds({ stretch: moved }), false);
  assert.match(stretchClaims(moved, 'rotary (seed 1)')[1].text, /not compared: below 90% at 64 words, not both learned/);
  moved.rows.tuned[4] = 0.91;
  assert.match(stretchClaims(moved, 'rotary (seed 1)')[1].text, /the stretch hurts by 7 points/);
  assert.equal(claims[0].holds({ stretch: null }), false);
  // interpolation: what Chen et al. report, beside the run, and whether the run agrees
  const pi = { ...structuredClone(view), method: 'linear' };
  pi.rows.tuned[4] = 0.06;
  const said = stretchClaims(pi, 'rotary (seed 1)');
  assert.deepEqual(said.map((c) => c.name), ['stretch-zero', 'stretch-tuned', 'stretch-literature']);
  assert.match(said[2].text, /^Chen et al\. \(2023, .*“RoPE-based pretrained LLMs such as LLaMA models to up to 32768 with minimal fine-tuning \(within 1000 steps\)”/);
  assert.match(said[2].text, /interpolated ×4 and tuned 50 steps, rotary \(seed 1\) reads 6% at 64 words: below 90%: not learned back, unlike what they report/);
  assert.equal(said[2].holds({ stretch: pi }), true);
  const recovered = structuredClone(pi);
  recovered.rows.tuned[4] = 0.97;
  assert.equal(said[2].holds({ stretch: recovered }), false);
  assert.match(stretchClaims(recovered, 'rotary (seed 1)')[2].text, /97% at 64 words: at or above 90%: it learned the longer sentences back, as they report/);
  assert.equal(stretchClaims({ ...pi, tune: 0 }, 'x').length, 1);
});
