// The built site ($SEQORDER_DIST/site, default dist/site) served on 127.0.0.1 for the tests that run in every engine.
// What a test needs from the network is done here, on the server, the same way for every engine (no test relies on
// one browser's request interception):
//   const site = await startSite();                 // site.url, site.origin
//   site.answer('/lib/seqorder.mjs', { status: 404 });  // a response of the test's own, until site.reset()
//   site.requests                                    // every request so far: { path, status }
// Every HTML page is served with one script added first in its <head>, /__seqorder-test/errors.js, which records the
// page's errors (console.error, uncaught errors and rejections, CSP violations) in globalThis.__seqorderTestErrors;
// the drivers read them with errors(). It is a same-origin file, so the page's own CSP allows it. It also keeps the
// unhandled rejections in the tab's sessionStorage (UNHANDLED_KEY), where each-engine.mjs finds them after each test,
// whichever page the test left open.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../../scripts/serve.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const siteDir = path.resolve(root, process.env.SEQORDER_DIST ?? 'dist', 'site');

export const ERRORS_SCRIPT = '/__seqorder-test/errors.js';
/** The sessionStorage key under which the errors script keeps the page's unhandled rejections, across loads. */
export const UNHANDLED_KEY = 'seqorder-test-unhandled-rejections';
const ERRORS_SOURCE = `(() => {
  const errors = (globalThis.__seqorderTestErrors = []);
  // an Error as its name and message, then its stack (whose first line repeats them in V8, not in the others)
  const text = (x) => (x instanceof Error ? x.name + ': ' + x.message + (x.stack ? '\\n' + x.stack : '') : String(x));
  const original = console.error;
  console.error = function (...args) {
    errors.push('console.error: ' + args.map(text).join(' '));
    return original.apply(this, args);
  };
  addEventListener('error', (e) => errors.push('uncaught: ' + text(e.error ?? e.message)));
  addEventListener('unhandledrejection', (e) => {
    errors.push('unhandled rejection: ' + text(e.reason));
    // kept across the tab's loads, for each-engine.mjs's check after every test
    try {
      const kept = JSON.parse(sessionStorage.getItem('${UNHANDLED_KEY}') ?? '[]');
      sessionStorage.setItem('${UNHANDLED_KEY}', JSON.stringify([...kept, location.pathname + ': ' + text(e.reason).slice(0, 500)]));
    } catch {}
  });
  document.addEventListener('securitypolicyviolation', (e) =>
    errors.push('CSP: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));
})();
`;

/** `html` with a script element for each of `sources` added first in its <head> (without one: right after the
 * doctype, so that the page stays in standards mode). */
export function withScripts(html, sources) {
  const tags = sources.map((src) => `<script src="${src}"></script>`).join('');
  const at = /<head[^>]*>/i.exec(html) ?? /^\s*<!doctype[^>]*>/i.exec(html);
  return at ? html.slice(0, at.index + at[0].length) + tags + html.slice(at.index + at[0].length) : tags + html;
}

const TYPE = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', wasm: 'application/wasm' };

/**
 * Serves the site (after checking that `requires`, a file the test needs, was built; `isolated`: with the headers that
 * make its pages cross-origin isolated, scripts/serve.mjs's ISOLATION_HEADERS). Resolves to
 * { url, origin, requests, answer(path, response), reset(), close() }. A response is { status = 200, type, body }
 * (type: 'html', 'js', 'wasm' or a content type; body: string or Buffer), or a function of the request returning one.
 */
export async function startSite({ requires = 'index.html', isolated = false } = {}) {
  assert.ok(existsSync(path.join(siteDir, requires)), `no ${requires} in ${siteDir}: run npm run build first`);
  const answers = new Map();
  const requests = [];
  const send = (response, pathname, { status = 200, type = 'text/plain', body = '' }) => {
    const contentType = TYPE[type] ?? type;
    const payload = contentType.startsWith('text/html') ? withScripts(String(body), [ERRORS_SCRIPT]) : body;
    requests.push({ path: pathname, status });
    response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(payload);
    return true;
  };
  const server = await startServer({
    root: siteDir,
    isolated,
    intercept(request, response, pathname) {
      const page = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
      const answer = answers.get(pathname) ?? answers.get(page);
      if (answer) return send(response, pathname, typeof answer === 'function' ? answer(request) : answer);
      if (pathname === ERRORS_SCRIPT) return send(response, pathname, { type: 'js', body: ERRORS_SOURCE });
      const file = path.join(siteDir, page);
      if (page.endsWith('.html') && file.startsWith(siteDir + path.sep) && existsSync(file))
        return send(response, pathname, { type: 'html', body: readFileSync(file, 'utf8') });
      response.on('finish', () => requests.push({ path: pathname, status: response.statusCode }));
      return false;
    },
  });
  return {
    url: server.url,
    origin: new URL(server.url).origin,
    requests,
    answer(pathname, response) {
      answers.set(pathname, response);
    },
    reset() {
      answers.clear();
    },
    close: server.close,
  };
}

/** A blank page of a test's own, as an answer: its title, and the site's icon (else WebKit asks for /favicon.ico). */
export const blankPage = (title) => ({ type: 'html', body: `<!doctype html><title>${title}</title><link rel="icon" href="/favicon.svg">` });

/** The site's own index.html (without the errors script, which serving adds). */
export const indexHtml = () => readFileSync(path.join(siteDir, 'index.html'), 'utf8');
