// Where loadSeqorder finds the module (options.wasmUrl, options.wasmBinary, the packaged default) and what its errors
// say when it cannot: the URL it tried, what came back, and how to point it elsewhere. A local HTTP server plays the
// servers users meet (a 404, an index.html fallback for a missing file).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSeqorder, siteDir } from './helpers/load.mjs';

const modules = path.join(siteDir, '..', 'lib', 'seqorder');
const wasm = readFileSync(path.join(modules, 'seqorder_core.wasm'));
const HTML = '<!doctype html><html><body>the app</body></html>';
let server, origin;

before(async () => {
  // /wasm/seqorder_core.wasm: the module; /missing/…: 404; anything else: the app's index.html (an SPA fallback)
  server = createServer((request, response) => {
    if (request.url === '/wasm/seqorder_core.wasm') response.writeHead(200, { 'content-type': 'application/wasm' }).end(wasm);
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
      assert.match(error.message, /loadSeqorder\(\{ wasmUrl: .* "Use it in your app"/);
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
