// The page's rule for its static prose (web/js/claims.mjs): it explains mechanisms and states no outcome; a
// sentence that states a result is generated from the numbers, beside its check, in an experiment module. This scans
// what the page writes as it is, the text of web/index.html and the string literals of web/js/sections/*.mjs (but
// section "lab"'s, whose words are its lab's), for the words that state outcomes (helpers/static-prose.mjs). A few
// mechanism statements need one of those words: they are listed below, each with why it states no outcome, and each
// must still be found (a stale entry fails too).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTCOME_WORDS, outcomeWords, staticTexts } from './helpers/static-prose.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP = new Set(['lab.mjs']);

/** The page's static texts that may hold an outcome word: { file, text (a part of the text), why }. */
const ALLOWED = [
  { file: 'web/index.html', text: 'Attention Is All You Need', why: 'the title of the paper the page cites' },
  { file: 'web/js/sections/add-position.mjs', text: 'Attention Is All You Need', why: 'the title of the paper whose practice the paragraph gives' },
  { file: 'web/js/sections/add-position.mjs', text: 'The model then learns how to use that combination', why: 'what training does with the sum, a mechanism of the lesson: no result of this page' },
  { file: 'web/js/sections/add-position.mjs', text: 'The model learns to use the combination', why: 'the same mechanism, in the summary of the figure' },
  { file: 'web/js/sections/four-steps.mjs', text: '−∞ becomes exactly 0', why: 'exp(−∞) = 0 in floating point: how the softmax masks, checked by steps-masked-weights-exactly-zero' },
  { file: 'web/js/sections/norm.mjs', text: '“Exactly”, in floating point', why: 'the title of the paragraph that says what the word means' },
  { file: 'web/js/sections/norm.mjs', text: 'exactly means within rounding', why: 'what the word means on this page' },
];

/** The page's files to scan, relative to the repository. */
const files = ['web/index.html', ...readdirSync(path.join(root, 'web/js/sections')).filter((f) => f.endsWith('.mjs') && !SKIP.has(f))
  .map((f) => `web/js/sections/${f}`)];

/** The outcome words of `source` (the file `file`) outside the allowed texts: ['file:line “word” in: text']. */
function findings(file, source, allowed = ALLOWED) {
  const found = [];
  for (const { line, text } of staticTexts(source, file.endsWith('.html') ? 'html' : 'js')) {
    const words = outcomeWords(text);
    if (words.length === 0) continue;
    const covered = allowed.filter((a) => a.file === file && text.includes(a.text));
    // an allowed text covers the outcome words inside it only
    const rest = covered.reduce((t, a) => t.replace(a.text, ' '), text);
    for (const word of outcomeWords(rest)) found.push(`${file}:${line} “${word}” in: ${text}`);
  }
  return found;
}

const read = (file) => readFileSync(path.join(root, file), 'utf8');

test('the static prose of index.html and the section modules states no outcome (but the allowed mechanism statements)', () => {
  assert.ok(files.length >= 10, `only ${files.length} files to scan`);
  const found = files.flatMap((file) => findings(file, read(file)));
  assert.deepEqual(found, [], `outcome words in static text: write these sentences from the numbers, beside their check (web/js/claims.mjs), or say the mechanism without them:\n${found.join('\n')}`);
});

test('every allowed text is still on the page, and holds an outcome word', () => {
  for (const a of ALLOWED) {
    const texts = staticTexts(read(a.file), a.file.endsWith('.html') ? 'html' : 'js').filter((t) => t.text.includes(a.text));
    assert.ok(texts.length > 0, `${a.file}: no static text holds “${a.text}” any more: remove it from ALLOWED`);
    assert.ok(outcomeWords(a.text).length > 0, `“${a.text}” holds no outcome word: remove it from ALLOWED`);
  }
});

test('the scan reads the texts a reader sees: the modules\' strings, the page\'s text and description, not code or comments', () => {
  const texts = staticTexts(read('web/js/sections/four-steps.mjs'), 'js').map((t) => t.text);
  assert.ok(texts.some((t) => t.startsWith('Attention turns each row into a blend of rows, in four steps.')), 'a prose() string');
  assert.ok(texts.some((t) => t.includes('Scores : the dot product of query row i with key row j')), 'HTML prose, tags dropped');
  assert.ok(!texts.some((t) => t.includes('section "four-steps"')), 'a comment was read');
  const page = staticTexts(read('web/index.html'), 'html').map((t) => t.text);
  assert.ok(page.some((t) => t.startsWith('Positions and attention, run live')), 'the description');
  assert.ok(page.some((t) => t.includes('Giving a sequence a sense of order')), 'the heading');
  assert.ok(!page.some((t) => t.includes('main.mjs numbers them')), 'an HTML comment was read');
  // a template literal's parts, its ${…} left out; a regular expression is no string
  assert.deepEqual(staticTexts('const a = `all ${n} pairs ${f(`never ${x}`)} here`; const r = /"most"/g; const s = \'the end\';', 'js').map((t) => t.text),
    ['never', 'all … pairs … here', 'the end']);
  assert.deepEqual(outcomeWords('They differ; IDENTICAL, always: most of all, never exactly. Differently, allows, mostly.'),
    ['differ', 'IDENTICAL', 'always', 'most', 'all', 'never', 'exactly']);
  assert.ok(OUTCOME_WORDS.includes('identical') && OUTCOME_WORDS.includes('learns'));
});

test('an outcome written as static text is found: section four-steps\' old notice, a sentence added to index.html', () => {
  const file = 'web/js/sections/four-steps.mjs';
  // the line the page had before its notice was generated: a verdict written before measuring
  const old = read(file).replace('const line = notice(f, \'\');',
    'const line = notice(f, `The two “${word}” rows ${positions ? \'differ, thanks to their positions\' : \'are identical without positions\'}.`);');
  assert.notEqual(old, read(file));
  const at = `${file}:${lineOf(old, 'are identical without positions')}`;
  assert.deepEqual(findings(file, old).map((f) => f.split(' in: ')[0]), [`${at} “differ”`, `${at} “identical”`]);
  const page = read('web/index.html').replace('</main>', '<p>Without positions the model never learns the order.</p></main>');
  assert.match(findings('web/index.html', page).join('\n'), /web\/index\.html:\d+ “never” in: Without positions the model never learns the order\./);
  // and an allowed text covers only itself: the same word beside it is found
  const norm = read('web/js/sections/norm.mjs').replace('exactly means within rounding.', 'exactly means within rounding, and the norms are exactly D/2.');
  assert.equal(findings('web/js/sections/norm.mjs', norm).length, 1);
});

/** The line of `source` holding `text`. */
const lineOf = (source, text) => source.slice(0, source.indexOf(text)).split('\n').length;
