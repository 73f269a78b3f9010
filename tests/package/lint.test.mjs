// The tarball through the two linters of published packages, and its documentation:
//   publint (package.json's exports, files and formats) must report nothing;
//   @arethetypeswrong/cli in the profiles the package claims (docs/apps.md, "Types"): esm-only for every entry point
//     (each one imported: node16 from ESM, bundler), and every profile for the entry points that are CommonJS too
//     (seqorder, seqorder/model, seqorder/pool: node10, node16 from CommonJS and ESM, bundler), each with no option
//     but those, as an author's CI would run it;
//   the documentation site (scripts/docs.mjs: TypeDoc, with the README as its landing page and docs/*.md as its
//     guides) builds without a warning and holds them all, and the lesson site serves it as its docs/;
//   every link of the README is absolute (it is the package's page on npmjs.com), and every URL into the repository
//     that the README, an error message or a declaration names leads to a file that exists, at an anchor that exists
//     (a heading's, as GitHub makes it);
//   npm publish --dry-run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkTools, importTool, pack, root, sh, toolBin } from './tools.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'seqorder-lint-'));
let tarball;

before(async () => {
  checkTools();
  tarball = path.join(work, (await pack(work)).filename);
  await sh('tar', ['xzf', tarball, '-C', work]);  // into work/package
}, { timeout: 300_000 });

after(() => rmSync(work, { recursive: true, force: true }));

test('publint: no error, warning or suggestion', { timeout: 60_000 }, async () => {
  const { publint } = await importTool('publint');
  const { formatMessage } = await importTool('publint/utils');
  const pkg = JSON.parse(readFileSync(path.join(work, 'package', 'package.json'), 'utf8'));
  const { messages } = await publint({ pkgDir: path.join(work, 'package'), level: 'suggestion', strict: true });
  assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`), []);
});

test('@arethetypeswrong/cli: nothing wrong in the profiles the package claims (esm-only for every entry point; every profile for its CommonJS ones)',
  { timeout: 180_000 }, async () => {
    const attw = path.join(toolBin, 'attw');
    // a problem exits 1, which fails here with the report
    const { stdout: esm } = await sh(attw, [tarball, '--format', 'ascii', '--profile', 'esm-only']);
    for (const entry of ['"seqorder"', '"seqorder/model"', '"seqorder/pool"', '"seqorder/plot"', '"seqorder/checks"', '"seqorder/relaxed"', '"seqorder/figures.css"'])
      assert.ok(esm.includes(entry), `attw --profile esm-only checked ${entry}`);
    const { stdout: all } = await sh(attw, [tarball, '--format', 'ascii', '--entrypoints', '.', 'model', 'pool']);
    assert.match(all, /"seqorder\/model"\s+node10: 🟢/);
  });

/** The documentation site, written once by scripts/docs.mjs into the test's folder. */
let site;
const docsSite = () => {
  site ??= sh(process.execPath, [path.join(root, 'scripts', 'docs.mjs'), path.join(work, 'docs')], { timeout: 300_000 })
    .then(() => path.join(work, 'docs'));
  return site;
};

test('the documentation site: the API reference with the README as its landing page and every guide, without a warning; the lesson site serves it',
  { timeout: 300_000 }, async () => {
    const out = await docsSite();  // typedoc.json treats warnings as errors (a broken link or anchor among them): one fails here
    const landing = readFileSync(path.join(out, 'index.html'), 'utf8');
    assert.match(landing, /Give a sequence a sense of order/, 'the landing page is the README');
    // each guide is a page of its own, titled by its heading, and the landing page's links to them lead to it
    const pages = readdirSync(path.join(out, 'documents')).map((f) => readFileSync(path.join(out, 'documents', f), 'utf8'));
    for (const guide of readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md'))) {
      const title = readFileSync(path.join(root, 'docs', guide), 'utf8').match(/^# (.+)$/m)[1];
      const escaped = title.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');
      assert.ok(pages.some((page) => page.includes(escaped)), `no page of docs/${guide} ("${title}")`);
    }
    const links = [...new Set([...landing.matchAll(/href="(documents\/[^"#]+)/g)].map((m) => decodeURIComponent(m[1])))];
    assert.ok(links.length >= 12, `the landing page links ${links.length} guides`);
    for (const link of links) assert.ok(existsSync(path.join(out, link)), `the landing page links ${link}, which is not there`);
    for (const page of ['functions/seqorder.loadSeqorder.html', 'functions/seqorder_model.loadModelModule.html',
      'interfaces/seqorder.Seqorder.html', 'functions/seqorder_plot.heatmap.html', 'functions/seqorder_checks.renderChecks.html']) {
      assert.ok(existsSync(path.join(out, page)), `the reference has no ${page}`);
    }
    assert.match(readFileSync(path.join(out, 'functions/seqorder_plot.heatmap.html'), 'utf8'), /Throws/);
    // the build (npm pack's, above) put it in the lesson site, which npm start serves: the same pages, built from the
    // same sources (scripts/docs.mjs's hash of them)
    const served = path.join(path.resolve(root, process.env.SEQORDER_DIST ?? 'dist'), 'site', 'docs');
    const files = (dir) => readdirSync(dir, { recursive: true }).map(String).sort();
    assert.deepEqual(files(served), files(out), 'the lesson site serves the documentation as its docs/');
    assert.equal(readFileSync(path.join(served, '.sources'), 'utf8'), readFileSync(path.join(out, '.sources'), 'utf8'));
  });

/** A heading's anchor as GitHub makes it: lower case, punctuation and symbols dropped (but - and _), spaces to -. */
const githubSlug = (heading) => heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase()
  .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');

/** The anchors of a markdown file: its headings' (a repeated one numbered, as GitHub does). */
function anchorsOf(file) {
  const seen = new Map();
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => {
    const slug = githubSlug(heading.trim());
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    return n ? `${slug}-${n}` : slug;
  }));
}

/** The repository: package.json's, on GitHub; its files are linked on its main branch (blob, tree, raw). */
const repository = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const raw = repository.replace('https://github.com/', 'https://raw.githubusercontent.com/');
const inRepository = (url) => [`${repository}/blob/main/`, `${repository}/tree/main/`, `${raw}/main/`].find((base) => url.startsWith(base));

/** Why the URL `url` into the repository leads nowhere (a missing file, a missing anchor), or null when it leads somewhere. */
function brokenLink(url) {
  const base = inRepository(url);
  if (!base) return `${url} is not a URL into ${repository}'s main branch`;
  const [file, anchor] = url.slice(base.length).split('#');
  const target = path.join(root, decodeURIComponent(file));
  if (!existsSync(target)) return `${url}: no file ${file}`;
  if (anchor === undefined) return null;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return `${url}: an anchor into what is not a markdown file`;
  return anchorsOf(target).has(decodeURIComponent(anchor)) ? null : `${url}: ${file} has no heading whose anchor is #${anchor}`;
}

test('links: the README\'s are absolute, and every URL into the repository that the README, an error message or a declaration names leads somewhere',
  { timeout: 60_000 }, async () => {
    const pkg = path.join(work, 'package');
    const readme = readFileSync(path.join(pkg, 'README.md'), 'utf8');
    const readmeLinks = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);
    assert.deepEqual(readmeLinks.filter((l) => !/^https:\/\//.test(l) && !l.startsWith('#')), [], 'README links that lead nowhere from npmjs.com');
    const toRepository = readmeLinks.filter(inRepository);
    assert.ok(toRepository.length >= 15, `the README links ${toRepository.length} files of the repository`);
    // the shipped code: URLs written out (the declarations' @see) and those its messages build (docs-url.mjs's docsUrl)
    const lib = path.join(pkg, 'dist', 'lib');
    const { docsUrl } = await import(pathToFileURL(path.join(lib, 'docs-url.mjs')).href);
    const code = readdirSync(lib, { recursive: true }).map(String).filter((f) => /\.(mjs|cjs|d\.c?ts)$/.test(f))
      .map((f) => readFileSync(path.join(lib, f), 'utf8')).join('\n');
    const written = [...code.matchAll(new RegExp(`${repository.replace(/[./]/g, '\\$&')}/[^\\s'"\`)]+`, 'g'))].map((m) => m[0]);
    const built = [...code.matchAll(/docsUrl\('([^']+)', '([^']+)'\)/g)].map(([, page, anchor]) => docsUrl(page, anchor));
    assert.ok(built.length >= 3 && written.length >= 3, `the code names ${built.length} sections by docsUrl and ${written.length} by URL`);
    assert.ok(docsUrl('api.md', 'x').startsWith(`${repository}/blob/main/docs/`), 'docs-url.mjs points into package.json\'s repository');
    // and the messages themselves, as a user gets them: each names one of those URLs
    const { loadSeqorder } = await import(pathToFileURL(path.join(lib, 'seqorder.mjs')).href);
    const so = await loadSeqorder();
    const messages = [
      await loadSeqorder({ wasmUrl: `${path.join(work, 'nowhere')}/` }).then(() => 'loaded', (e) => e.message),
      (() => { try { so.createModel({}); return 'created'; } catch (e) { return e.message; } })(),
    ];
    for (const message of messages) {
      const url = message.match(/https:\/\/\S+/)?.[0].replace(/[.,;)]+$/, '');
      assert.ok(url && built.includes(url), `the message names no URL the test checks: ${message}`);
    }
    const broken = [...new Set([...toRepository, ...written, ...built])].map(brokenLink).filter(Boolean);
    assert.deepEqual(broken, []);
  });

test('npm publish --dry-run: the tarball publishes without a warning (but the one that says the dry run is not logged in)',
  { timeout: 60_000 }, async () => {
    const { stderr } = await sh('npm', ['publish', '--dry-run', '--ignore-scripts', tarball], { cwd: work });
    const warnings = stderr.split('\n').filter((l) => /^npm (warn|error)/i.test(l) && !/requires you to be logged in/.test(l));
    assert.deepEqual(warnings, []);
    assert.match(stderr, /Publishing to https:\/\/registry\.npmjs\.org\/ with tag latest and default access \(dry-run\)/);
  });
