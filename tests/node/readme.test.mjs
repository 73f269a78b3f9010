// The README's JS example and the trainable model's (docs/api.md) run as written (against the built package) and
// print what their comments say.
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
/** The ```js blocks of a markdown file of the repository. */
async function jsBlocks(file) {
  return Array.from((await readFile(path.join(root, file), 'utf8')).matchAll(/```js\n([\s\S]*?)```/g), (m) => m[1]);
}

/** The built package's file of each entry point an example imports. */
const ENTRIES = { seqorder: 'seqorder.mjs', 'seqorder/model': 'model-entry.mjs' };

/** Runs `example` (importing the built package for 'seqorder' and 'seqorder/model') in a new node process; returns what it printed. */
async function run(example) {
  assert.match(example, /from 'seqorder(\/model)?'/);
  const source = example.replace(/from '(seqorder(?:\/model)?)'/g,
    (_, entry) => `from ${JSON.stringify(pathToFileURL(path.join(dist, 'lib', ENTRIES[entry])).href)}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seqorder-readme-'));
  try {
    const file = path.join(dir, 'example.mjs');
    await writeFile(file, source);
    return (await promisify(execFile)(process.execPath, [file])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('the README example runs and prints what its comments promise', async () => {
  const [example] = await jsBlocks('README.md');
  assert.ok(example, 'README.md has a ```js example');
  const stdout = await run(example);
  assert.match(stdout, /0, 1, 0, 1, 0, 1, 0, 1/);
  assert.match(stdout, /\[ 3, 3 \] \[ 3, 8 \]/);
  assert.match(stdout, /RangeError: width must be a positive even integer/);
});

test('the trainable model\'s example (docs/api.md) trains a model and prints what its comments promise', async () => {
  const example = (await jsBlocks('docs/api.md')).find((b) => b.includes('so.createModel({ vocab: so.taskWords.length'));
  assert.ok(example, 'docs/api.md has the model example');
  const stdout = await run(example);
  assert.match(stdout, /^accuracy 100\.0%$/m);
  assert.match(stdout, /^(\w+ ){11}\w+$/m, 'a sentence of 12 words');
  assert.match(stdout, /\[ 1, 2, 12, 12 \]/);
});
