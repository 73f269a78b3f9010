// The one interface the cross-engine browser tests are written against (tests/browser/helpers/engines/index.mjs opens it for
// an engine). A driver holds one page of one browser. Each engine's module implements the primitives:
//   goto(url)                 load a page and wait for its load event
//   evaluate(fn, arg)         run fn(arg) in the page (fn's source is sent, so it sees only arg), await its promise,
//                             resolve to the JSON-like result; an exception in the page rejects
//   press(key)                one key, pressed and released, to the focused element ('ArrowDown', 'Escape', …),
//                             or with modifiers held meanwhile ('Shift+Tab': keyChord below reads it)
//   click(selector)           a real pointer click on the element's centre
//   moveMouse(x, y)           the pointer to viewport coordinates
//   setViewport({ width, height })
//   close()                   the browser and everything it started
// and `engine` ('chromium', 'firefox', 'webkit') and `version` (the browser's own name and version).
// Built on them, the same for every engine: waitFor, focus, text, attribute, value, hover, errors.

/**
 * What an engine's evaluate rejects with when the script's result never came back because the page was between two
 * documents: a navigation ended the script (Chromium, WebKit), or WebKit's driver lost the answer ("Could not parse
 * script result", right after a page load). Whether fn ran is not known, so only a caller that may run fn
 * again (waitFor's polls) retries.
 */
export class ResultLost extends Error {}

/** A key as press() takes it, read: 'Shift+Tab' → { modifiers: ['Shift'], key: 'Tab' }; 'a', '+' and 'Shift++' read too. */
export function keyChord(text) {
  const [, modifiers, key] = /^((?:(?:Shift|Control|Alt|Meta)\+)*)(.+)$/s.exec(text);
  return { modifiers: modifiers.split('+').filter(Boolean), key };
}

/** In the page: whether an element matches `selector`, is not disabled and is shown (has a box): clickable. */
export function clickable(selector) {
  const element = document.querySelector(selector);
  return element !== null && !element.disabled && element.getClientRects().length > 0;
}

export class Driver {
  /**
   * Polls fn(arg) in the page every `interval` ms until it returns a truthy value, which it resolves to; past
   * `timeout` ms it rejects with an Error naming `what` (the condition, in words) and the engine. A poll whose result
   * was lost (ResultLost) counts as one that did not hold.
   */
  async waitFor(fn, arg, { timeout = 30_000, interval = 100, what = 'the condition' } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      let value;
      try {
        value = await this.evaluate(fn, arg);
      } catch (error) {
        if (!(error instanceof ResultLost) || Date.now() > end) throw error;
      }
      if (value) return value;
      if (Date.now() > end) throw new Error(`${this.engine}: ${what} did not hold within ${timeout} ms`);
      await new Promise((resolve) => setTimeout(resolve, interval));
    }
  }

  /** Waits until an element matches `selector`. */
  waitForSelector(selector, options = {}) {
    return this.waitFor((s) => document.querySelector(s) !== null, selector, { what: `an element matching ${selector}`, ...options });
  }

  /**
   * Gives the element keyboard focus (it must exist), and rejects unless it has it as a reader's would: the element is
   * document.activeElement and the document has the focus (document.hasFocus()). A browser can set activeElement in
   * a document that has no focus (Firefox's first tab under automation did: no focus events, no :focus-visible);
   * keys then still reach the element, and a keyboard test would pass without the page ever being focused.
   */
  async focus(selector) {
    const { active, hasFocus } = await this.evaluate((s) => {
      const element = document.querySelector(s);
      if (!element) throw new Error(`no element matches ${s}`);
      element.focus();
      return { active: document.activeElement === element, hasFocus: document.hasFocus() };
    }, selector);
    if (!active) throw new Error(`${this.engine}: ${selector} did not take the focus (it is not document.activeElement)`);
    if (!hasFocus) throw new Error(`${this.engine}: ${selector} is document.activeElement, but the document has no keyboard focus (document.hasFocus() is false)`);
  }

  /** The element's textContent, or null when nothing matches. */
  text(selector) {
    return this.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
  }

  /** The element's attribute, or null. */
  attribute(selector, name) {
    return this.evaluate(([s, n]) => document.querySelector(s)?.getAttribute(n) ?? null, [selector, name]);
  }

  /** An input's value. */
  value(selector) {
    return this.evaluate((s) => document.querySelector(s).value, selector);
  }

  /** The pointer over the element, at fractions (fx, fy) of its box. */
  async hover(selector, fx = 0.5, fy = 0.5) {
    const box = await this.evaluate((s) => {
      const element = document.querySelector(s);
      element.scrollIntoView({ block: 'center' });
      const { x, y, width, height } = element.getBoundingClientRect();
      return { x, y, width, height };
    }, selector);
    await this.moveMouse(Math.round(box.x + box.width * fx), Math.round(box.y + box.height * fy));
  }

  /** The errors the page has recorded (tests/browser/helpers/site.mjs adds the script that records them). */
  errors() {
    return this.evaluate(() => globalThis.__seqorderTestErrors ?? ['the errors script of tests/browser/helpers/site.mjs did not run']);
  }

  /** Resolves after two animation frames (plots and controls re-render in the next one). */
  frames() {
    return twoFrames((f) => this.evaluate(f));
  }
}

/** How long twoFrames waits for two animation frames, and then for the page's answer (a frame comes every ~16 ms). */
export const FRAMES_WAIT_MS = 30_000;

/**
 * Resolves after two animation frames of the page that `evaluate` (a driver's or a playwright page's) runs functions
 * in. Headless Chromium on a busy machine has at times stopped drawing a page for a while; the page works without
 * frames (web/js/next-frame.mjs, near.mjs), so after FRAMES_WAIT_MS without them this resolves all the same, with a
 * warning, once the page's main thread answers a timer, and the test's own assertions judge the page as it is. A page
 * whose main thread does not answer within FRAMES_WAIT_MS more rejects: that is the page's fault, not the drawing's.
 */
export async function twoFrames(evaluate) {
  const drawn = evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
  drawn.catch(() => {});  // still pending when the page closes, if no frame ever came
  let timer;
  const waited = new Promise((r) => { timer = setTimeout(() => r(false), FRAMES_WAIT_MS); });
  const framesCame = await Promise.race([drawn, waited]).finally(() => clearTimeout(timer));  // drawn's errors reject
  if (framesCame) return;
  await within(FRAMES_WAIT_MS, 'two animation frames, then a timer in the page (has its main thread stopped?)',
    evaluate(() => new Promise((r) => setTimeout(() => r(true), 100))));
  console.warn(`twoFrames: no animation frame within ${FRAMES_WAIT_MS / 1000} s (the browser is not drawing the page); ` +
    'the page answers a timer, so the test goes on');
}

/** Rejects with an Error naming `what` when `promise` has not settled within `ms`: an engine never hangs a test. */
export function within(ms, what, promise) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
