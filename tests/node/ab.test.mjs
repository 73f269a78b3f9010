// bench/ab.mjs: builds of the package timed against each other in one process. The same build given twice runs with
// the same bits and ratios near 1; a build whose output differs (a stand-in package whose attention returns zeros) is
// refused, unless anyBits, which times it and marks it; a contender's options are parsed as JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cases, compare, parseContender } from '../../bench/ab.mjs';
import { lib } from './helpers/load.mjs';

const base = `${pathToFileURL(lib).href}/`;
const cpu = async (f) => {
  const before = process.cpuUsage();
  await f();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1e6;
};
const tiny = { lengths: [8], widths: [16], rounds: 2, sampleSeconds: 0.005, warmSeconds: 0, time: cpu };

/** A package folder whose loadSeqorder's attention gives zeros of the output's size. */
function standIn() {
  const dir = mkdtempSync(path.join(tmpdir(), 'seqorder-ab-'));
  writeFileSync(path.join(dir, 'seqorder.mjs'), `export async function loadSeqorder() {
  return { attention: (q, k, v) => ({ data: new Float32Array(q.data.length / q.shape.at(-1) * v.shape.at(-1)) }) };
}
`);
  return dir;
}

test('the cases: a reader\'s sizes, batch axes up to T = 1024; the pool\'s from T = 256', () => {
  const list = cases();
  assert.deepEqual([...new Set(list.map((c) => c.T))], [8, 64, 256, 1024, 4096]);
  assert.deepEqual([...new Set(list.map((c) => c.D))], [16, 64, 128]);
  assert.ok(list.every((c) => c.lead.length === 0 || c.T <= 1024));
  assert.equal(list.length, 3 * (4 * 2 * 2 + 2));
  assert.deepEqual([...new Set(cases({ pool: true }).map((c) => c.T))], [256, 512, 1024, 2048, 4096]);
});

test('a contender: a folder, then its options as JSON (a bare word as a string)', () => {
  assert.deepEqual(parseContender('dist/lib'), { folder: 'dist/lib', options: {} });
  assert.deepEqual(parseContender('a/b#sharedMemory=false,simd="relaxed",kernel=x'),
    { folder: 'a/b', options: { sharedMemory: false, simd: 'relaxed', kernel: 'x' } });
  assert.throws(() => parseContender('a#=1'), RangeError);
});

test('the same build twice: the same bits, every case timed', async () => {
  const { cases: done } = await compare([{ name: 'a', base, options: {} }, { name: 'b', base, options: {} }], tiny);
  assert.equal(done.length, 4);
  for (const c of done) {
    assert.deepEqual(c.results.map((r) => [r.name, r.sameBits]), [['a', true], ['b', true]]);
    assert.ok(c.results.every((r) => r.gflops > 0 && r.overFirst > 0), JSON.stringify(c.results));
  }
});

test('a build whose outputs differ is refused, or with anyBits timed and marked', async () => {
  const dir = standIn();
  try {
    const contenders = [{ name: 'package', base, options: {} }, { name: 'stand-in', base: `${pathToFileURL(dir).href}/`, options: {} }];
    await assert.rejects(compare(contenders, tiny), /^Error: ab: stand-in differ from package at T = 8, D = 16$/);
    const { cases: done } = await compare(contenders, { ...tiny, anyBits: true });
    assert.deepEqual(done[0].results.map((r) => [r.name, r.sameBits]), [['package', true], ['stand-in', false]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
