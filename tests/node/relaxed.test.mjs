// The opt-in relaxed-SIMD build: loadSeqorder({ simd: 'relaxed' }), the post-link rewriter
// (scripts/relaxed-rewrite.mjs), and the relaxed module's results.
// Node 20 runs relaxed SIMD only with --experimental-wasm-relaxed-simd, so the relaxed module itself is checked in a
// child process started with that flag (tests/node/helpers/relaxed-calls.mjs); this process checks the fallback to the
// default module, the options, and the rewriter on hand-assembled modules and on the built ones.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSeqorder, siteDir } from './helpers/load.mjs';
import { rewriteRelaxed, RELAXED_PROBE } from '../../scripts/relaxed-rewrite.mjs';
import { DECOY, moduleWith, oldFmaModule } from './helpers/relaxed-modules.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const lib = path.join(siteDir, '..', 'lib');
const relaxedHere = WebAssembly.validate(RELAXED_PROBE);

/** Where `needle` (a byte array) starts in `bytes`, or -1. */
function indexOf(bytes, needle) {
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('loadSeqorder({ simd })', () => {
  test('the default module is the plain SIMD128 one', async () => {
    assert.equal((await loadSeqorder()).build, 'simd128');
    assert.equal((await loadSeqorder({ simd: 'simd128' })).build, 'simd128');
  });

  test("simd: 'relaxed' loads the relaxed module exactly where the engine validates relaxed SIMD, else the default", async () => {
    const so = await loadSeqorder({ simd: 'relaxed' });
    assert.equal(so.build, relaxedHere ? 'relaxed' : 'simd128');
    const x = { data: Float32Array.of(1, 2, 3, 4), shape: [2, 2], dtype: 'float32' };
    assert.equal(so.attention(x, x, x).data.length, 4);
  });

  test('bad values: TypeError for a non-string, RangeError for an unknown build or relaxed with wasmBinary', async () => {
    await assert.rejects(loadSeqorder({ simd: 1 }), { name: 'TypeError', message: /^options\.simd must be a string/ });
    await assert.rejects(loadSeqorder({ simd: 'fma' }), { name: 'RangeError', message: /^options\.simd must be one of 'simd128', 'relaxed', got 'fma'/ });
    await assert.rejects(loadSeqorder({ simd: 'relaxed', wasmBinary: new Uint8Array(8) }), { name: 'RangeError', message: /cannot be combined with options\.wasmBinary/ });
  });

  test('the module reports its own build, also when its bytes come from the caller', async () => {
    const so = await loadSeqorder({ wasmBinary: readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm')) });
    assert.equal(so.build, 'simd128');
  });
});

describe('scripts/relaxed-rewrite.mjs', () => {
  test('rewrites the old fma to f32x4.relaxed_madd with its operands reordered through three new v128 locals', () => {
    const input = oldFmaModule();
    const { bytes, rewritten, functions } = rewriteRelaxed(input);
    assert.deepEqual([rewritten, functions], [1, 1]);
    // params 0..3 and the declared v128 local 4: the scratch locals are 5 ($a), 6 ($b), 7 ($c)
    const reorder = [0x21, 7, 0x21, 6, 0x21, 5, 0x20, 6, 0x20, 7, 0x20, 5, 0xfd, 0x85, 0x02];
    assert.ok(indexOf(bytes, reorder) > 0, 'the reordering sequence and the final opcode');
    assert.ok(indexOf(bytes, [2, 1, 0x7b, 3, 0x7b]) > 0, 'the locals: the declared group, then 3 x v128');
    assert.ok(indexOf(bytes, DECOY) > 0, 'a v128.const whose bytes look like the old opcode is left alone');
    assert.equal(indexOf(bytes, [0x04, 0x6e, 0x6f, 0x74, 0x65, 0xfd, 0xaf, 0x01]), bytes.length - 8, 'custom section copied');
    assert.equal(bytes.length, input.length + 2 + 12, 'the body grows by the new locals group and the reordering');
    assert.equal(rewriteRelaxed(bytes).rewritten, 0, 'nothing left to rewrite');
    assert.equal(WebAssembly.validate(bytes), relaxedHere);
    assert.equal(WebAssembly.validate(input), false, 'no engine accepts the pre-standard opcode');
  });

  test('wasm-validate (wabt) accepts the rewritten module and rejects the input, where it is installed', (t) => {
    const probe = spawnSync('wasm-validate', ['--version']);
    if (probe.error) return t.skip('wasm-validate is not installed (Debian: apt-get install wabt)');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'seqorder-relaxed-'));
    try {
      const good = path.join(dir, 'good.wasm'), bad = path.join(dir, 'bad.wasm');
      writeFileSync(good, rewriteRelaxed(oldFmaModule()).bytes);
      writeFileSync(bad, oldFmaModule());
      assert.equal(spawnSync('wasm-validate', ['--enable-relaxed-simd', good]).status, 0);
      assert.notEqual(spawnSync('wasm-validate', ['--enable-relaxed-simd', bad]).status, 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('refuses what it does not know instead of passing it through', () => {
    const fms = moduleWith([0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, 0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, 0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, 0xfd, 0xb0, 0x01, 0x1a]);
    assert.throws(() => rewriteRelaxed(fms), /pre-standard relaxed-SIMD opcode 0xfd 0xb0/);
    assert.throws(() => rewriteRelaxed(moduleWith([0xff])), /unknown opcode 0xff/);
    assert.throws(() => rewriteRelaxed(moduleWith([0xfd, 0xff, 0xff, 0x03])), /unknown SIMD opcode/);
    assert.throws(() => rewriteRelaxed(oldFmaModule().subarray(0, 60)), /bytes expected|unexpected end/);
    assert.throws(() => rewriteRelaxed(Uint8Array.of(0, 0x61, 0x73, 0x6d, 2, 0, 0, 0)), /not a WebAssembly 1\.0 module/);
    assert.throws(() => rewriteRelaxed(moduleWith([0x41, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x1a])), /signed LEB128 longer/);
  });

  test('decodes the whole default module and leaves it byte for byte as it was (no old fma in it)', () => {
    const wasm = readFileSync(path.join(lib, 'seqorder', 'seqorder_core.wasm'));
    const { bytes, rewritten } = rewriteRelaxed(wasm);
    assert.equal(rewritten, 0);
    assert.ok(Buffer.from(bytes).equals(wasm));
  });

  test('the built relaxed modules (main and model) have no old fma left and their instructions all decode', (t) => {
    for (const name of ['seqorder_core_relaxed.wasm', 'seqorder_model_relaxed.wasm']) {
      const file = path.join(lib, 'seqorder', name);
      if (!existsSync(file)) return t.skip('no relaxed module in this build (SEQORDER_RELAXED=OFF)');
      const wasm = readFileSync(file);
      assert.equal(rewriteRelaxed(wasm).rewritten, 0, name);
      assert.equal(WebAssembly.validate(wasm), relaxedHere, name);
    }
  });
});

test('the relaxed module, run where relaxed SIMD runs (node --experimental-wasm-relaxed-simd): within float32 tolerance of the reference', (t) => {
  const flag = '--experimental-wasm-relaxed-simd';
  const probe = spawnSync(process.execPath, [flag, '-e', `process.exit(WebAssembly.validate(Uint8Array.of(${RELAXED_PROBE.join(',')})) ? 0 : 3)`]);
  if (probe.status !== 0) return t.skip(`this node does not run relaxed SIMD with ${flag}`);
  if (!existsSync(path.join(lib, 'seqorder', 'seqorder_core_relaxed.wasm'))) return t.skip('no relaxed module in this build (SEQORDER_RELAXED=OFF)');
  const child = spawnSync(process.execPath, [flag, path.join(here, 'helpers', 'relaxed-calls.mjs')], { encoding: 'utf8', env: process.env });
  assert.equal(child.status, 0, `relaxed-calls.mjs failed:\n${child.stderr}`);
  const report = JSON.parse(child.stdout.trim().split('\n').pop());
  assert.equal(report.build, 'relaxed');
  assert.ok(report.cases > 100);
  if (process.env.SEQORDER_REPORT_ERRORS) console.log('relaxed build:', JSON.stringify(report));
});

test('a model module of another build than the main one is refused, naming both builds (node --experimental-wasm-relaxed-simd)', (t) => {
  const flag = '--experimental-wasm-relaxed-simd';
  const probe = spawnSync(process.execPath, [flag, '-e', `process.exit(WebAssembly.validate(Uint8Array.of(${RELAXED_PROBE.join(',')})) ? 0 : 3)`]);
  if (probe.status !== 0) return t.skip(`this node does not run relaxed SIMD with ${flag}`);
  const relaxedModel = path.join(lib, 'seqorder', 'seqorder_model_relaxed.wasm');
  if (!existsSync(relaxedModel)) return t.skip('no relaxed module in this build (SEQORDER_RELAXED=OFF)');
  const script = `
import { readFileSync } from 'node:fs';
import { loadSeqorder } from ${JSON.stringify(new URL(`file://${path.join(lib, 'model-entry.mjs')}`).href)};
const so = await loadSeqorder({ modelWasmBinary: readFileSync(${JSON.stringify(relaxedModel)}) });
let message = 'no error';
try { so.createModel({ vocab: 4, width: 8, classes: 2 }); } catch (error) { message = error.message; }
console.log(JSON.stringify({ build: so.build, message }));
`;
  const child = spawnSync(process.execPath, [flag, '--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  const { build, message } = JSON.parse(child.stdout);
  assert.equal(build, 'simd128');
  assert.match(message, /^seqorder: the model module could not be loaded from options\.modelWasmBinary: it is the relaxed build, and the main module the simd128 build: give the model module of the main module's build\.$/);
});
