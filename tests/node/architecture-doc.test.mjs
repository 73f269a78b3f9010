// docs/architecture.md names the tree's files and folders: every path it names exists. A path is a word of its layout
// block, or a span in backticks, made of path characters with a slash or a file extension (`calls.hpp`,
// src/core/model, fuzz/corpus/<name>/); it exists if some file or folder of the repository ends with it (the page
// names files relative to a folder it has named: pool/protocol.mjs), and a template (<id>, <name>, *) if some path
// matches it; one under dist/ is in the build ($SEQORDER_DIST). Package specifiers (seqorder/pool) and bare
// extensions (.cpp) are not paths.
//
// Its two tables of layers (C++ and JS: a layer, its folders, the layers it may import) hold for every import of the
// tree: each JS import, export … from, import() and require() of a literal path or package, and each C++
// #include "…", goes to the importing file's own layer or one its row names.
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

// ---- the layers

const CODE = { js: /\.(mjs|cjs|js|ts)$/, cpp: /\.(cpp|hpp|h)$/ };
// Where an #include "…" not beside its file is found: the include folders of the targets (src/CMakeLists.txt,
// tests/CMakeLists.txt, fuzz/CMakeLists.txt, the benchmark harnesses' and the expf4 check's -Isrc/core).
const INCLUDE_FOLDERS = ['src/core/api', 'src/core', 'tests/native', 'fuzz'];

/** The table of `text` whose first column is headed `heading`: [{ name, folders, may }] (may: a Set of names). */
function layerTable(text, heading) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${heading} |`));
  assert.ok(start >= 0, `docs/architecture.md has no table headed "${heading}"`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [name, folders, may] = line.split('|').slice(1, 4).map((cell) => cell.trim());
    rows.push({
      name,
      folders: [...folders.matchAll(/`([^`]+)`/g)].map((m) => m[1]),
      may: new Set(may.split(',').map((n) => n.trim()).filter(Boolean)),
    });
  }
  return rows;
}

/** The layer of `file` among `layers`: the one with the longest folder (or file) that holds it. */
function layerOf(file, layers) {
  let found;
  let length = -1;
  for (const layer of layers)
    for (const folder of layer.folders)
      if ((folder.endsWith('/') ? file.startsWith(folder) : file === folder) && folder.length > length) {
        found = layer;
        length = folder.length;
      }
  return found;
}

/** `text` without its comments (block comments, and line comments not in a URL): what a comment names is not imported. */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

/** What a JS file imports: the literal specifiers of its import, export … from, import() and require(). */
function jsImports(text) {
  text = withoutComments(text);
  const patterns = [
    /^(?:import|export)(?:\s+type)?\s*[\w\s{},*$]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^import\s*['"]([^'"]+)['"]/gm,
    /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
}

/** What a C++ file includes with quotes. */
function cppIncludes(text) {
  return [...text.matchAll(/^\s*#\s*include\s*"([^"]+)"/gm)].map((m) => m[1]);
}

/**
 * Every import of `files` (a Map of path → text) that the layers do not allow: "<file>: <what it imports> (<its
 * layer> → <that layer>)". A relative import under web/ of a file the tree does not hold is the site's (web/ is served
 * as dist/site/); an absolute one is a URL a page serves, not a file; one of a file that is not code (package.json) is
 * not a layer's. A file in no layer is reported too.
 */
function importViolations(files, layers) {
  const found = [];
  for (const [file, text] of files) {
    const language = CODE.js.test(file) ? 'js' : CODE.cpp.test(file) ? 'cpp' : null;
    if (!language) continue;
    const own = layerOf(file, layers[language]);
    if (!own) {
      found.push(`${file}: in no layer`);
      continue;
    }
    // (anything: a file of any layer, of none, the build's, or a package)
    const allows = (name) => name === own.name || own.may.has(name) || own.may.has('anything');
    if (language === 'js') {
      for (const spec of jsImports(text)) {
        if (spec.startsWith('/')) continue;
        if (!spec.startsWith('.')) {
          if (!allows('npm packages')) found.push(`${file}: ${spec} (${own.name} → npm packages)`);
          continue;
        }
        let target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (!CODE.js.test(target)) continue;
        if (target.startsWith('web/') && !files.has(target)) target = `dist/site/${target.slice('web/'.length)}`;
        const layer = layerOf(target, layers.js);
        if (!allows(layer?.name ?? 'no layer')) found.push(`${file}: ${spec} (${own.name} → ${layer?.name ?? 'no layer'})`);
      }
    } else {
      for (const spec of cppIncludes(text)) {
        const target = [path.posix.dirname(file), ...INCLUDE_FOLDERS].map((folder) => path.posix.normalize(path.posix.join(folder, spec)))
          .find((candidate) => files.has(candidate));
        const layer = target && layerOf(target, layers.cpp);
        if (!target) found.push(`${file}: ${spec} (not found)`);
        else if (!allows(layer?.name ?? 'no layer')) found.push(`${file}: ${spec} (${own.name} → ${layer?.name ?? 'no layer'})`);
      }
    }
  }
  return found;
}

const layers = { cpp: layerTable(doc, 'C++ layer'), js: layerTable(doc, 'JS layer') };
const sourceFiles = new Map(tree.filter((file) => CODE.js.test(file) || CODE.cpp.test(file))
  .map((file) => [file, readFileSync(path.join(root, file), 'utf8')]));

test('the layers: every folder they name exists, every name they allow is a layer', () => {
  for (const language of ['cpp', 'js']) {
    assert.ok(layers[language].length >= 5, `${language}: ${layers[language].length} layers`);
    const names = new Set([...layers[language].map((l) => l.name), 'anything', 'npm packages']);
    for (const layer of layers[language]) {
      assert.ok(layer.folders.length > 0, `${layer.name}: no folder`);
      for (const name of layer.may) assert.ok(names.has(name), `${layer.name} may import '${name}', which is no layer`);
    }
  }
  const folders = [...layers.cpp, ...layers.js].flatMap((l) => l.folders);
  assert.deepEqual(missingPaths(folders, tree), []);
});

test('no file imports across the layers', (t) => {
  const count = [...sourceFiles].reduce((n, [file, text]) => n + (CODE.js.test(file) ? jsImports(text) : cppIncludes(text)).length, 0);
  t.diagnostic(`${sourceFiles.size} files, ${count} imports and includes`);
  assert.ok(count > 500, `only ${count} imports read`);
  assert.deepEqual(importViolations(sourceFiles, layers), []);
});

test('an import across the layers is caught', () => {
  const planted = new Map([
    ...sourceFiles,
    ['src/core/api/planted.hpp', '#include "calls.hpp"\n#include "tensor.hpp"\n'],
    ['src/core/model/planted.cpp', '#include "model.hpp"\n#include "model_calls.hpp"\n'],
    ['src/bindings/planted.cpp', '#include <emscripten/val.h>\n#include "values.hpp"\n#include "model/model.hpp"\n'],
    ['tests/native-vs-wasm/planted.cpp', '#include "calls.hpp"\n#include "calls/any_model.hpp"\n#include "missing.hpp"\n'],
    ['src/js/planted.mjs', "import { heatmap } from '../figures/plot/index.mjs';\nexport { x } from './api.mjs';\n" +
      "export * from '../../dist/lib/seqorder.mjs';\nconst p = import('playwright-core');\n" +
      "// import { y } from '../../web/js/main.mjs' (a comment)\n"],
    ['bench/planted.mjs', "import { loadSeqorder } from '../dist/lib/model-entry.mjs';\nimport 'onnxruntime-web';\n"],
    ['web/js/planted.mjs', "import {\n  makeApi,\n} from '../../src/js/api.mjs';\nimport { loadSeqorder } from '../lib/seqorder.mjs';\n" +
      "const other = () => import('/lib/seqorder.mjs');\n"],
    ['src/figures/planted.mjs', "import 'side-effect';\n"],
    ['planted.mjs', "import './src/js/api.mjs';\n"],
  ]);
  assert.deepEqual(importViolations(planted, layers), [
    'src/core/api/planted.hpp: tensor.hpp (api → kernels)',
    'src/core/model/planted.cpp: model_calls.hpp (model → api)',
    'src/bindings/planted.cpp: model/model.hpp (bindings → model)',
    'tests/native-vs-wasm/planted.cpp: calls/any_model.hpp (dump → calls)',
    'tests/native-vs-wasm/planted.cpp: missing.hpp (not found)',
    'src/js/planted.mjs: ../figures/plot/index.mjs (package → figures)',
    'src/js/planted.mjs: ../../dist/lib/seqorder.mjs (package → no layer)',
    'src/js/planted.mjs: playwright-core (package → npm packages)',
    'web/js/planted.mjs: ../../src/js/api.mjs (page → package)',
    'src/figures/planted.mjs: side-effect (figures → npm packages)',
    'planted.mjs: in no layer',
  ]);
});
