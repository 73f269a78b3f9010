// The README's JS example runs as written (against the built package) and prints what its comments say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist');

test('the README example runs and prints what its comments promise', async () => {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const example = readme.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(example, 'README.md has a ```js example');
  assert.match(example, /from 'seqorder'/);
  const source = example.replace("from 'seqorder'", `from ${JSON.stringify(pathToFileURL(path.join(dist, 'lib', 'seqorder.mjs')).href)}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seqorder-readme-'));
  try {
    const file = path.join(dir, 'example.mjs');
    await writeFile(file, source);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    assert.match(stdout, /0, 1, 0, 1, 0, 1, 0, 1/);
    assert.match(stdout, /\[ 3, 3 \] \[ 3, 8 \]/);
    assert.match(stdout, /RangeError width must be a positive even integer/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
