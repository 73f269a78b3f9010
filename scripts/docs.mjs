// node scripts/docs.mjs [out]: the package's documentation as a static site (default dist/docs; scripts/build.sh copies
// it into the lesson site's docs/, so that `npm start` and any static host serve it): the API reference, generated
// by TypeDoc from the hand-written .d.ts files (typedoc.json: every export documented, a warning fails the build),
// with the README as its landing page and the guides of docs/ (docs/*.md) as its documents, rendered to HTML by
// TypeDoc (the build's only npm package; the package and the page depend on none).
//
// The README links to the guides by their absolute URLs in the repository (it is also the package's page on
// npmjs.com, where a relative link leads nowhere); here those links lead to the guides' pages beside it. Each guide's
// title is its first heading. TypeDoc checks every link between the pages and every anchor. The site is built again
// only when one of its sources changed (their hash is kept beside it).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'dist', 'docs'));

/** Where the README's links to the repository's files lead: package.json's repository (on GitHub), its main branch. */
const repository = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).repository.url
  .replace(/^git\+/, '').replace(/\.git$/, '');
const REPOSITORY = {
  blob: `${repository}/blob/main/`,
  raw: `${repository.replace('https://github.com/', 'https://raw.githubusercontent.com/')}/main/`,
};

const config = JSON.parse(readFileSync(path.join(root, 'typedoc.json'), 'utf8'));
const guides = readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort();
/** The README's pictures (scripts/screenshot.mjs): the lesson page's and the bench page's. */
const SCREENSHOTS = ['screenshot.png', 'lab-screenshot.png'];
const sources = ['README.md', 'typedoc.json', 'package.json', ...config.entryPoints, ...guides.map((g) => `docs/${g}`), ...SCREENSHOTS.map((f) => `docs/${f}`)];

const hash = createHash('sha256');
for (const file of sources) hash.update(`${file}\n`).update(readFileSync(path.join(root, file)));
const digest = hash.digest('hex');
const stamp = path.join(out, '.sources');
if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) process.exit(0);

const typedoc = path.join(root, 'node_modules', '.bin', 'typedoc');
if (!existsSync(typedoc)) {
  console.error('docs: TypeDoc is missing: run npm ci (scripts/setup.sh does)');
  process.exit(1);
}

// The README and the guides as TypeDoc reads them, in a folder of their own: the README's links to the guides made
// relative (as the guides' own links are), its title left to the page's; each guide titled by its first heading, in
// the order of the README's table of them (its section "Documentation").
const stage = mkdtempSync(path.join(tmpdir(), 'seqorder-docs-'));
try {
  mkdirSync(path.join(stage, 'docs'));
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8')
    .replaceAll(`${REPOSITORY.blob}docs/`, 'docs/')
    .replaceAll(`${REPOSITORY.raw}docs/`, 'docs/')
    .replace(/^# .*\n+/, '');
  writeFileSync(path.join(stage, 'README.md'), readme);
  const table = readme.slice(readme.indexOf('\n## Documentation\n'));
  const linked = [...table.matchAll(/\]\(docs\/([\w-]+\.md)\)/g)].map((m) => m[1]);
  const order = [...new Set([...linked, ...guides])].filter((g) => guides.includes(g));
  for (const guide of order) {
    const text = readFileSync(path.join(root, 'docs', guide), 'utf8');
    const title = text.match(/^# (.+)$/m)?.[1];
    if (!title) throw new Error(`docs/${guide} has no title (a first # heading)`);
    writeFileSync(path.join(stage, 'docs', guide), `---\ntitle: ${JSON.stringify(title)}\n---\n${text}`);
  }
  for (const file of SCREENSHOTS) cpSync(path.join(root, 'docs', file), path.join(stage, 'docs', file));

  rmSync(out, { recursive: true, force: true });
  const documents = order.flatMap((guide) => ['--projectDocuments', path.join(stage, 'docs', guide)]);
  // the reference's links to the sources lead to the repository of package.json (a checkout may have no remote)
  const run = spawnSync(typedoc, ['--options', path.join(root, 'typedoc.json'), '--out', out,
    '--sourceLinkTemplate', `${repository}/blob/{gitRevision}/{path}#L{line}`,
    '--readme', path.join(stage, 'README.md'), ...documents], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    process.exit(run.status ?? 1);
  }
  writeFileSync(stamp, digest);
  console.log(`docs: wrote ${path.relative(process.cwd(), out)} (the API reference and ${guides.length} guides)`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
