// docs/architecture.md names the tree's files and folders: every path it names exists. A path is a word of its layout
// block, or a span in backticks, made of path characters with a slash or a file extension (`calls.hpp`,
// src/core/model, fuzz/corpus/<name>/); it exists if some file or folder of the repository ends with it (the page
// names files relative to a folder it has named: pool/protocol.mjs), and a template (<id>, <name>, *) if some path
// matches it; one under dist/ is in the build ($SEQORDER_DIST). Package specifiers (seqorder/pool) and bare
// extensions (.cpp) are not paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist');
const doc = readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');

/** Every file and folder of the repository (folders with a trailing slash), relative to it; not what is installed,
 * built or git's own. */
function treePaths(dir = '', paths = []) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || (!dir && /^(\.git|dist.*|build.*)$/.test(entry.name))) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      paths.push(`${relative}/`);
      treePaths(relative, paths);
    } else paths.push(relative);
  }
  return paths;
}

const EXTENSION = /\.(hpp|cpp|h|mjs|cjs|js|ts|json|md|sh|py|html|css|txt)$/;

/** The paths `text` (the page) names: the words of its ``` blocks, and its `spans`, that look like paths. */
function namedPaths(text) {
  const blocks = [...text.matchAll(/```\n([\s\S]*?)```/g)].flatMap((m) => m[1].match(/[\w.*<>/-]+/g) ?? []);
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]);
  const looksLikePath = (word) => /^[\w.*<>/-]+$/.test(word) && /\w/.test(word) &&
    (/\w\/|\/\w|\w\/$/.test(word) || EXTENSION.test(word)) && !/^seqorder\/[\w-]+$/.test(word) && !/^\.[\w.]+$/.test(word);
  return [...new Set([...blocks, ...spans].map((word) => word.replace(/[.]$/, '')).filter(looksLikePath))];
}

/** Of `named`, those no path of `tree` ends with (a template: matches), and those under dist/ not built. */
function missingPaths(named, tree) {
  return named.filter((name) => {
    if (name.startsWith('dist/')) return !existsSync(path.join(dist, name.slice('dist/'.length)));
    const pattern = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/<\w+>|\*/g, '[^/]+');
    const ends = new RegExp(`(^|/)${pattern}/?$`);
    return !tree.some((p) => ends.test(p));
  });
}

const tree = treePaths();

test('every path docs/architecture.md names exists', () => {
  const named = namedPaths(doc);
  for (const sure of ['src/core/', 'src/bindings/embind.cpp', 'calling.hpp', 'pool/protocol.mjs', 'scripts/',
    'web/js/sections/<id>.mjs', 'fuzz/<name>_fuzz.cpp', 'tests/node/*-experiments.test.mjs'])
    assert.ok(named.includes(sure), `${sure} is not read as a path (read: ${named.join(' ')})`);
  assert.deepEqual(missingPaths(named, tree), []);
});

test('a path that is not in the tree is caught', () => {
  const named = namedPaths('```\nsrc/core/      calls.hpp, pools/protocol.mjs\n```\n`web/js/sections/<id>.css`, ' +
    '`seqorder/pool`, a `.cpp`, `dist/site/js/`, `dist/site/jss/`');
  assert.deepEqual(named, ['src/core/', 'calls.hpp', 'pools/protocol.mjs', 'web/js/sections/<id>.css', 'dist/site/js/',
    'dist/site/jss/']);
  assert.deepEqual(missingPaths(named, tree), ['pools/protocol.mjs', 'web/js/sections/<id>.css', 'dist/site/jss/']);
});
