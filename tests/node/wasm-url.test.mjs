// Where loadSeqorder finds the main module (options.wasmUrl, options.wasmBinary, the packaged default) and the model
// module (options.modelWasmUrl, options.modelWasmBinary, beside the main one, the packaged default), and what the
// errors say when it cannot: the URL it tried, what came back, and how to point it elsewhere. A local HTTP server plays
// the servers users meet (a 404, an index.html fallback for a missing file).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSeqorder, siteDir } from './helpers/load.mjs';

const modules = path.join(siteDir, '..', 'lib', 'seqorder');
const wasm = readFileSync(path.join(modules, 'seqorder_core.wasm'));
const modelWasm = readFileSync(path.join(modules, 'seqorder_model.wasm'));
const HTML = '<!doctype html><html><body>the app</body></html>';
let server, origin;

before(async () => {
  // /wasm/seqorder_core.wasm: the main module (and no model module beside it); /models/seqorder_model.wasm: the model
  // module; /missing/…: 404; anything else: the app's index.html (an SPA fallback)
  server = createServer((request, response) => {
    if (request.url === '/wasm/seqorder_core.wasm') response.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm);
    else if (request.url === '/models/seqorder_model.wasm') response.writeHead(200, { 'content-type': 'application/wasm' }).end(modelWasm);
    else if (request.url.startsWith('/missing/')) response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else response.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

after(() => new Promise((resolve) => server.close(resolve)));

/** The API computes: position 0 of a width-2 table is (0, 1). */
async function works(options) {
  const so = await loadSeqorder(options);
  assert.deepEqual([...so.positions(1, 2).data], [0, 1]);
  return so;
}

/** The model module works: a model's first loss, the same bits wherever the module came from. */
const MODEL = { vocab: 4, width: 8, classes: 2, seed: 1 };
const BATCH = [{ data: Int32Array.of(1, 2, 3), shape: [1, 3] }, { data: Int32Array.of(1), shape: [1] }];
let firstLoss;
async function modelWorks(options) {
  const so = await works(options);
  const model = so.createModel(MODEL);
  const loss = model.loss(...BATCH);
  model.dispose();
  firstLoss ??= (await loadSeqorder()).createModel(MODEL).loss(...BATCH);
  assert.ok(Object.is(loss, firstLoss), `${loss} is ${firstLoss}`);
  return so;
}

describe('options.wasmUrl', { timeout: 60_000 }, () => {
  test('a folder (ending in /) or the file, as a path, a file: URL or an http URL', async () => {
    await works({ wasmUrl: `${modules}/` });
    await works({ wasmUrl: pathToFileURL(`${modules}/`) });
    await works({ wasmUrl: path.join(modules, 'seqorder_core.wasm') });
    await works({ wasmUrl: path.relative(process.cwd(), path.join(modules, 'seqorder_core.wasm')) });
    await works({ wasmUrl: `${origin}/wasm/seqorder_core.wasm` });
    await works({ wasmUrl: new URL(`${origin}/wasm/`) });
    // simd: 'relaxed' picks its file in the folder, as it does beside the package
    assert.equal((await works({ wasmUrl: `${modules}/`, simd: 'relaxed' })).build, (await loadSeqorder({ simd: 'relaxed' })).build);
  });

  test('wrong kinds are TypeErrors, contradictions RangeErrors', async () => {
    await assert.rejects(loadSeqorder({ wasmUrl: 42 }), { name: 'TypeError', message: /^options\.wasmUrl must be a string or a URL/ });
    await assert.rejects(loadSeqorder({ wasmUrl: `${modules}/`, wasmBinary: wasm }), { name: 'RangeError', message: /give one/ });
    await assert.rejects(loadSeqorder({ wasmUrl: path.join(modules, 'seqorder_core.wasm'), simd: 'relaxed' }),
      { name: 'RangeError', message: /options\.wasmUrl must then be the folder of both modules/ });
    await assert.rejects(loadSeqorder({ wasmUrl: 'http://[bad' }), { name: 'RangeError', message: /^options\.wasmUrl must be a URL or a path, got "http:\/\/\[bad"/ });
  });

  test('an index.html where the module should be: the error names the URL, what came back and the fix', async () => {
    const url = `${origin}/assets/seqorder_core.wasm`;
    await assert.rejects(loadSeqorder({ wasmUrl: url }), (error) => {
      assert.equal(error.name, 'Error');
      assert.ok(error.message.startsWith(`seqorder: the WebAssembly module could not be loaded from ${url}: the server answered HTTP 200 OK, text/html,`), error.message);
      assert.match(error.message, /its first bytes are "<!doctype html><" \(a web page: likely the server's fallback for a file it does not have\)/);
      assert.match(error.message, /loadSeqorder\(\{ wasmUrl: .*; see https:\/\/github\.com\/seqorder\/seqorder\/blob\/main\/docs\/apps\.md#where-the-wasm-files-are$/);
      assert.doesNotMatch(error.message, /ASSERTIONS/);
      return true;
    });
  });

  test('a 404, a missing file and an unreachable server are named too', async () => {
    await assert.rejects(loadSeqorder({ wasmUrl: `${origin}/missing/` }),
      { message: new RegExp(`could not be loaded from ${origin}/missing/seqorder_core\\.wasm: the server answered HTTP 404 Not Found\\. .*wasmUrl`) });
    await assert.rejects(loadSeqorder({ wasmUrl: '/nowhere/seqorder_core.wasm' }),
      { message: /could not be loaded from file:\/\/\/nowhere\/seqorder_core\.wasm: reading it failed \(ENOENT/ });
    await assert.rejects(loadSeqorder({ wasmUrl: 'http://127.0.0.1:9/seqorder_core.wasm' }),
      { message: /could not be loaded from http:\/\/127\.0\.0\.1:9\/seqorder_core\.wasm: fetching it failed/ });
  });
});

describe('options.wasmBinary', { timeout: 60_000 }, () => {
  test('bytes that are not WebAssembly, or a module that is not this one, reject and say so', async () => {
    await works({ wasmBinary: wasm });
    await works({ wasmBinary: new Uint8Array(wasm).buffer });
    await assert.rejects(loadSeqorder({ wasmBinary: new TextEncoder().encode(HTML) }),
      { message: /could not be loaded from options\.wasmBinary: its first bytes are "<!doctype html><".*not a WebAssembly module's "\\0asm"\.$/ });
    // a valid, empty module: it compiles, but it is not seqorder's (no memory, no functions)
    await assert.rejects(loadSeqorder({ wasmBinary: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0) }),
      { message: /could not be loaded from options\.wasmBinary: it does not instantiate .*is it this version's module\?/ });
    await works();  // and the packaged default still loads afterwards
  });
});

describe('the model module', { timeout: 60_000 }, () => {
  test('found beside the main module (the folder of wasmUrl, or of the file it names), or at its packaged place (wasmBinary)', async () => {
    await modelWorks();
    await modelWorks({ wasmUrl: `${modules}/` });
    await modelWorks({ wasmUrl: path.join(modules, 'seqorder_core.wasm') });
    await modelWorks({ wasmBinary: wasm });
  });

  test('options.modelWasmUrl (a folder or the file, a path or an http URL) and options.modelWasmBinary say where it is', async () => {
    await modelWorks({ wasmUrl: `${origin}/wasm/`, modelWasmUrl: `${origin}/models/` });
    await modelWorks({ wasmUrl: `${origin}/wasm/seqorder_core.wasm`, modelWasmUrl: new URL(`${origin}/models/seqorder_model.wasm`) });
    await modelWorks({ modelWasmUrl: path.join(modules, 'seqorder_model.wasm') });
    await modelWorks({ wasmBinary: wasm, modelWasmBinary: modelWasm });
    await modelWorks({ modelWasmBinary: new Uint8Array(modelWasm).buffer });
  });

  test('wrong kinds are TypeErrors, contradictions RangeErrors, before anything is fetched', async () => {
    await assert.rejects(loadSeqorder({ modelWasmUrl: 42 }), { name: 'TypeError', message: /^options\.modelWasmUrl must be a string or a URL: the model module's \.wasm file, or a folder ending in '\/'/ });
    await assert.rejects(loadSeqorder({ modelWasmBinary: 'bytes' }), { name: 'TypeError', message: /^options\.modelWasmBinary must be an ArrayBuffer or a typed array of the model module's bytes/ });
    await assert.rejects(loadSeqorder({ modelWasmUrl: `${modules}/`, modelWasmBinary: modelWasm }), { name: 'RangeError', message: /^options\.modelWasmBinary and options\.modelWasmUrl both say where the model module is: give one/ });
    await assert.rejects(loadSeqorder({ simd: 'relaxed', modelWasmBinary: modelWasm }), { name: 'RangeError', message: /cannot be combined with options\.modelWasmBinary/ });
    await assert.rejects(loadSeqorder({ simd: 'relaxed', modelWasmUrl: path.join(modules, 'seqorder_model.wasm') }),
      { name: 'RangeError', message: /options\.modelWasmUrl must then be the folder of both model modules/ });
    await assert.rejects(loadSeqorder({ modelWasmUrl: 'http://[bad' }), { name: 'RangeError', message: /^options\.modelWasmUrl must be a URL or a path/ });
  });

  test('not served: loadSeqorder resolves and the rest works; createModel throws, each time, naming the URL, what came back and the fix', async () => {
    const so = await works({ wasmUrl: `${origin}/wasm/` });  // the server answers its index.html for seqorder_model.wasm
    const url = `${origin}/wasm/seqorder_model.wasm`;
    const expected = (error) => {
      assert.equal(error.name, 'Error');
      assert.ok(error.message.startsWith(`seqorder: the model module could not be loaded from ${url}: the server answered HTTP 200 OK, text/html,`), error.message);
      assert.match(error.message, /its first bytes are "<!doctype html><" \(a web page/);
      assert.match(error.message, /loadSeqorder\(\{ modelWasmUrl: /);
      return true;
    };
    assert.throws(() => so.createModel(MODEL), expected);
    assert.throws(() => so.createModel(MODEL), expected, 'the same error again');
    assert.throws(() => so.createModel({ vocab: 'four' }), expected, 'before the options are read');
    assert.deepEqual(so.orderTask({ count: 2, length: 4 }).ids.shape, [2, 4], 'the tasks need no model module');
    const before = so.memoryStats();
    assert.throws(() => so.createModel(MODEL), expected);
    assert.deepEqual(so.memoryStats(), before);
    // a 404 and a missing file, said alike
    const missing = await works({ modelWasmUrl: `${origin}/missing/` });
    assert.throws(() => missing.createModel(MODEL), { message: new RegExp(`^seqorder: the model module could not be loaded from ${origin}/missing/seqorder_model\\.wasm: the server answered HTTP 404 Not Found\\. .*modelWasmUrl`) });
    const nowhere = await works({ modelWasmUrl: '/nowhere/seqorder_model.wasm' });
    assert.throws(() => nowhere.createModel(MODEL), { message: /^seqorder: the model module could not be loaded from file:\/\/\/nowhere\/seqorder_model\.wasm: reading it failed \(ENOENT/ });
  });

  test('bytes that are not the model module: not WebAssembly, not compiling, another module', async () => {
    const html = await works({ modelWasmBinary: new TextEncoder().encode(HTML) });
    assert.throws(() => html.createModel(MODEL), { message: /^seqorder: the model module could not be loaded from options\.modelWasmBinary: its first bytes are "<!doctype html><".*not a WebAssembly module's "\\0asm"\.$/ });
    const broken = await works({ modelWasmBinary: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 0x0a) });
    assert.throws(() => broken.createModel(MODEL), { message: /^seqorder: the model module could not be loaded from options\.modelWasmBinary: it does not compile in this engine \(/ });
    const main = await works({ modelWasmBinary: wasm });  // the main module where the model module should be
    assert.throws(() => main.createModel(MODEL), { message: /^seqorder: the model module could not be loaded from options\.modelWasmBinary: it is not seqorder's model module \(it has no modelCreate\)\.$/ });
    const empty = await works({ modelWasmBinary: Uint8Array.of(0, 0x61, 0x73, 0x6d, 1, 0, 0, 0) });
    assert.throws(() => empty.createModel(MODEL), { message: /could not be loaded from options\.modelWasmBinary: it does not instantiate \(.*\): is it this version's model module\?$/ });
    await modelWorks();  // and the packaged default still works afterwards
  });
});

