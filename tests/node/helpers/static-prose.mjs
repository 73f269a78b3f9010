// The page's static prose, and the outcome words in it. The page's rule (web/js/claims.mjs): a sentence that
// states a result is generated from the numbers it is about, beside its check; static prose explains mechanisms and
// states no outcome. This finds the words that state outcomes in the text the page's source writes as it is: the
// text of web/index.html (and its description and labels), and every string literal of a section module (template
// literals with their ${…} parts left out), whose HTML tags are dropped.
//   staticTexts(source, 'js' | 'html') → [{ line, text }]
//   outcomeWords(text) → the outcome words in text, as written

/** Words that state how an experiment came out (matched whole, in any case). */
export const OUTCOME_WORDS = ['identical', 'differ', 'differs', 'differed', 'learns', 'learnt', 'generalizes', 'generalises',
  'generalize', 'generalise', 'fails', 'failed', 'reached', 'reaches', 'never', 'most', 'all', 'always', 'exactly'];

const WORD = new RegExp(`\\b(${OUTCOME_WORDS.join('|')})\\b`, 'gi');

/** The outcome words in `text`. */
export const outcomeWords = (text) => [...text.matchAll(WORD)].map((m) => m[0]);

/** Text with HTML tags and comments dropped and the common entities read. */
export function plainText(html) {
  return html.replace(/<!--[\s\S]*?-->/g, ' ').replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;|&rsquo;|&lsquo;/g, '’').replace(/\s+/g, ' ').trim();
}

/** Where a `/` starts a regular expression rather than a division: after these (or at the start). */
const BEFORE_REGEX = /(^|[=(,:[!&|?{};+\-*%<>~^]|\breturn|\btypeof|\bcase)\s*$/;

/**
 * The string literals of JavaScript source: [{ line, text }], a template literal's static parts joined by ' … '.
 * Comments and regular expressions are skipped. Enough for the page's own modules (no JSX, no HTML comments).
 */
export function jsStrings(source) {
  const found = [];
  let i = 0;
  let line = 1;
  const advance = (n = 1) => {
    for (let k = 0; k < n; k += 1) if (source[i + k] === '\n') line += 1;
    i += n;
  };
  /** Reads a quoted string starting at i (the quote); returns its text. */
  const quoted = (quote) => {
    advance();
    let text = '';
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        text += source[i + 1] === 'n' ? '\n' : source[i + 1];
        advance(2);
      } else {
        text += source[i];
        advance();
      }
    }
    advance();
    return text;
  };
  /** Reads a template literal starting at i (the backquote), its ${…} parts lexed as code; returns its static text. */
  const template = () => {
    advance();
    const parts = [''];
    while (i < source.length && source[i] !== '`') {
      if (source[i] === '\\') {
        parts[parts.length - 1] += source[i + 1];
        advance(2);
      } else if (source[i] === '$' && source[i + 1] === '{') {
        advance(2);
        code('}');
        advance();
        parts.push('');
      } else {
        parts[parts.length - 1] += source[i];
        advance();
      }
    }
    advance();
    return parts.filter((p) => p.trim() !== '').join(' … ');
  };
  /** Lexes code until `end` (a closing brace at depth 0) or the end of the source, collecting strings. */
  const code = (end) => {
    let depth = 0;
    let last = '';  // the code before i since the last string or comment, to tell a regex from a division
    while (i < source.length) {
      const c = source[i];
      const at = line;
      if (c === '/' && source[i + 1] === '/') {
        while (i < source.length && source[i] !== '\n') advance();
      } else if (c === '/' && source[i + 1] === '*') {
        advance(2);
        while (i < source.length && !(source[i] === '*' && source[i + 1] === '/')) advance();
        advance(2);
      } else if (c === '\'' || c === '"') {
        found.push({ line: at, text: quoted(c) });
        last = 'x';
      } else if (c === '`') {
        found.push({ line: at, text: template() });
        last = 'x';
      } else if (c === '/' && BEFORE_REGEX.test(last)) {
        advance();
        let inClass = false;
        while (i < source.length && (inClass || source[i] !== '/')) {
          if (source[i] === '\\') advance();
          else if (source[i] === '[') inClass = true;
          else if (source[i] === ']') inClass = false;
          advance();
        }
        advance();
        last = 'x';
      } else {
        if (c === '{') depth += 1;
        if (c === '}') {
          if (depth === 0 && end === '}') return;
          depth -= 1;
        }
        last = (last + c).slice(-12);
        advance();
      }
    }
  };
  code(null);
  return found.filter((s) => s.text.trim() !== '');
}

/**
 * The text of an HTML page a reader is shown: its text (scripts, styles and comments left out), and its title,
 * description and labels (content, title, aria-label, alt attributes): [{ line, text }].
 */
export function htmlTexts(html) {
  const found = [];
  const lineAt = (index) => html.slice(0, index).split('\n').length;
  const body = html.replace(/<(script|style|noscript)\b[\s\S]*?<\/\1>/gi, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/<!--[\s\S]*?-->/g, (m) => m.replace(/[^\n]/g, ' '));
  for (const m of body.matchAll(/\b(content|title|aria-label|alt)="([^"]*)"/g)) {
    if (m[1] === 'content' && !/name="description"/.test(body.slice(body.lastIndexOf('<', m.index), m.index))) continue;
    found.push({ line: lineAt(m.index), text: m[2] });
  }
  for (const m of body.matchAll(/>([^<]+)</g)) {
    const text = plainText(m[1]);
    if (text) found.push({ line: lineAt(m.index + 1), text });
  }
  return found;
}

/** The page's static texts in `source` (kind 'js' or 'html'), HTML dropped: [{ line, text }]. */
export function staticTexts(source, kind) {
  return (kind === 'html' ? htmlTexts(source) : jsStrings(source).map((s) => ({ ...s, text: plainText(s.text) })))
    .filter((s) => s.text !== '');
}
