// scripts/stylesheets.mjs, which scripts/build.sh runs on the built site: each page's stylesheets become one link to
// css/page-<page>.css, their files joined in the page's order (the same cascade), and a stylesheet that loads other
// files is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { joinStylesheets } from '../../scripts/stylesheets.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A file of the site as the build lays it out (lib/figures/ is src/figures/). */
const siteFile = (href) => readFileSync(path.join(root, href.startsWith('lib/figures/') ? `src/figures/${href.slice(12)}` : `web/${href}`), 'utf8');

test('the lesson page: one stylesheet, its five files joined in order, the rest of the page as it was', () => {
  const html = readFileSync(path.join(root, 'web/index.html'), 'utf8');
  const hrefs = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]);
  assert.deepEqual(hrefs, ['lib/figures/figures.css', 'css/style.css', 'css/order.css', 'css/comparisons.css', 'css/lab.css']);
  const { html: joined, css } = joinStylesheets(html, 'index', siteFile);
  assert.deepEqual([...joined.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]), ['css/page-index.css']);
  assert.equal(joined.replace('  <link rel="stylesheet" href="css/page-index.css">\n', ''), html.replace(/^ *<link rel="stylesheet"[^\n]*\n/gm, ''));
  assert.equal(css, hrefs.map((href) => `/* ${href} */\n${siteFile(href)}`).join(''));
});

test('a page with one stylesheet is left as it is; one that loads other files is refused', () => {
  const one = '<head>\n  <link rel="stylesheet" href="a.css">\n</head>';
  assert.deepEqual(joinStylesheets(one, 'one', () => 'p {}'), { html: one, css: null });
  const two = '<head>\n  <link rel="stylesheet" href="a.css">\n  <link rel="stylesheet" href="b.css">\n</head>';
  assert.deepEqual(joinStylesheets(two, 'two', (href) => `/* ${href} */ p {}`),
    { html: '<head>\n  <link rel="stylesheet" href="css/page-two.css">\n</head>', css: '/* a.css */\n/* a.css */ p {}\n/* b.css */\n/* b.css */ p {}\n' });
  assert.throws(() => joinStylesheets(two, 'two', (href) => (href === 'b.css' ? 'p { background: url(x.png) }' : '')), /b\.css loads other files/);
  assert.throws(() => joinStylesheets(two, 'two', () => "@import 'c.css';"), /a\.css loads other files/);
});
