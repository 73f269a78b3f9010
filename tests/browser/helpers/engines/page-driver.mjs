// The Driver over a playwright or puppeteer page (Chromium and Firefox): both libraries name these calls alike. Their
// protocols also report the browser's own console errors (a failed load, a CSP violation), which errors() adds to
// what the page recorded, since the page's last navigation.
import { Driver, ResultLost, clickable, keyChord } from './driver.mjs';

export class PageDriver extends Driver {
  /** page: a playwright or puppeteer Page; setViewport(page, size) and close() are the library's own. */
  constructor({ engine, version, page, setViewport, close }) {
    super();
    Object.assign(this, { engine, version, page });
    this.resize = setViewport;
    this.shutdown = close;
    this.browserErrors = [];
    page.on('console', (message) => message.type() === 'error' && this.browserErrors.push(`console: ${message.text()}`));
    page.on('pageerror', (error) => this.browserErrors.push(`uncaught: ${error?.message ?? error}`));
  }

  async goto(url) {
    // Firefox may report a promise rejection that the page being left never handled while that page unloads: leave it
    // for a blank page first, so that what is reported after the list is emptied is the new page's.
    if (this.engine === 'firefox') await this.page.goto('about:blank', { waitUntil: 'load', timeout: 60_000 });
    this.browserErrors.length = 0;
    await this.page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  }

  async errors() {
    return [...(await super.errors()), ...this.browserErrors];
  }

  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg).catch((error) => {
      if (/Execution context was destroyed/.test(error.message)) throw new ResultLost(error.message);
      throw error;
    });
  }

  // (puppeteer's press takes one key only: the modifiers are held down around it, the same in both libraries)
  async press(text) {
    const { modifiers, key } = keyChord(text);
    for (const modifier of modifiers) await this.page.keyboard.down(modifier);
    try {
      await this.page.keyboard.press(key);
    } finally {
      for (const modifier of modifiers.toReversed()) await this.page.keyboard.up(modifier);
    }
  }

  // Waits, by timers, until the element is shown and not disabled, then clicks it without the library's own wait for a
  // stable element: playwright's counts animation frames, which headless Chromium on a busy machine has at times
  // stopped drawing (twoFrames, driver.mjs). Puppeteer has no such wait, and takes no options beside these.
  async click(selector) {
    await this.waitFor(clickable, selector, { interval: 50, what: `${selector} shown and enabled` });
    return this.page.click(selector, this.engine === 'chromium' ? { force: true } : {});
  }

  moveMouse(x, y) {
    return this.page.mouse.move(x, y);
  }

  setViewport(size) {
    return this.resize(this.page, size);
  }

  close() {
    return this.shutdown();
  }
}
