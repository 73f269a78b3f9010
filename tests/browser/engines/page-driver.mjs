// The Driver over a playwright or puppeteer page (Chromium and Firefox): both libraries name these calls alike.
import { Driver } from './driver.mjs';

export class PageDriver extends Driver {
  /** page: a playwright or puppeteer Page; setViewport(page, size) and close() are the library's own. */
  constructor({ engine, version, page, setViewport, close }) {
    super();
    Object.assign(this, { engine, version, page });
    this.resize = setViewport;
    this.shutdown = close;
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: 'load', timeout: 60_000 });
  }

  evaluate(fn, arg) {
    return this.page.evaluate(fn, arg);
  }

  press(key) {
    return this.page.keyboard.press(key);
  }

  click(selector) {
    return this.page.click(selector);
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
