// WebKitGTK (JavaScriptCore, Safari's engine): Debian's WebKitWebDriver (package webkit2gtk-driver) starts the
// MiniBrowser in automation mode, driven over classic WebDriver (./webdriver.mjs). It needs an X display: without
// $DISPLAY, an Xvfb of its own (package xvfb) is started on a free display number and stopped on close.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { Driver, ResultLost, keyChord, within } from './driver.mjs';
import { WebDriverSession, keyValue, waitUntilReady } from './webdriver.mjs';

export const INSTALL = 'apt-get install webkit2gtk-driver xvfb';
const driverPath = process.env.WEBKIT_WEBDRIVER ?? 'WebKitWebDriver';

/** The MiniBrowser WebKitWebDriver starts ($WEBKIT_BROWSER, else the one of the installed WebKitGTK). */
function miniBrowser() {
  if (process.env.WEBKIT_BROWSER) return process.env.WEBKIT_BROWSER;
  for (const arch of readdirSync('/usr/lib').filter((name) => name.includes('-linux-'))) {
    for (const api of ['webkitgtk-6.0', 'webkit2gtk-4.1', 'webkit2gtk-4.0']) {
      const file = `/usr/lib/${arch}/${api}/MiniBrowser`;
      if (existsSync(file)) return file;
    }
  }
  throw new Error(`webkit: no MiniBrowser under /usr/lib/*/webkit2gtk-4.1 (${INSTALL}, or set $WEBKIT_BROWSER)`);
}

/** Starts a program; rejects (naming it and the fix) when it cannot be started at all. */
function start(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    child.once('spawn', () => resolve(child));
    child.once('error', (error) => reject(new Error(`webkit: cannot start ${command}: ${error.message} (${INSTALL})`)));
  });
}

/** Stops a child process and waits for it (SIGKILL after 5 s). */
function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** An Xvfb on a display number it picks itself; resolves to { display, process }. */
async function startXvfb() {
  const xvfb = await start('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let log = '';
  xvfb.stderr.on('data', (chunk) => (log += chunk));
  const display = await within(20_000, 'webkit: Xvfb', new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.once('exit', (code) => reject(new Error(`webkit: Xvfb exited (${code}): ${log.trim()}`)));
  })).catch(async (error) => {
    await stop(xvfb);
    throw error;
  });
  return { display, process: xvfb };
}

/** A free TCP port on 127.0.0.1 (for the driver to listen on). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

class WebKitDriver extends Driver {
  engine = 'webkit';

  constructor({ session, children }) {
    super();
    this.session = session;
    this.children = children;
    this.version = `WebKitGTK ${session.capabilities.browserVersion}`;
  }

  // The driver answers /url once the page has loaded, but a script sent right after can lose its result (ResultLost),
  // so goto returns when the new document answers one.
  async goto(url) {
    await this.session.command('POST', '/url', { url });
    await this.waitFor(() => document.readyState === 'complete', null, { what: `${url} loaded` });
  }

  async evaluate(fn, arg) {
    const script = `const [arg, done] = arguments;
      Promise.resolve().then(() => (${fn})(arg)).then(
        (value) => done({ value: value === undefined ? null : value }),
        (error) => done({ error: error instanceof Error ? error.name + ': ' + error.message + '\\n' + error.stack : String(error) }));`;
    const result = await this.session.command('POST', '/execute/async', { script, args: [arg ?? null] }, { timeout: 310_000 })
      .catch((error) => {
        const { error: code, message } = error.webdriver ?? {};
        if (message === 'Could not parse script result' || (code === 'no such frame' && /before the unload event/.test(message)))
          throw new ResultLost(error.message);
        throw error;
      });
    if (result?.error !== undefined) throw new Error(`webkit: in the page: ${result.error}`);
    return result?.value;
  }

  async press(text) {
    const { modifiers, key } = keyChord(text);
    const held = modifiers.map(keyValue);
    const value = keyValue(key);
    await this.session.command('POST', '/actions', {
      actions: [{
        type: 'key', id: 'keyboard', actions: [
          ...held.map((m) => ({ type: 'keyDown', value: m })), { type: 'keyDown', value }, { type: 'keyUp', value },
          ...held.toReversed().map((m) => ({ type: 'keyUp', value: m })),
        ],
      }],
    });
  }

  async click(selector) {
    const element = await this.session.command('POST', '/element', { using: 'css selector', value: selector });
    await this.session.command('POST', `/element/${Object.values(element)[0]}/click`, {});
  }

  async moveMouse(x, y) {
    await this.session.command('POST', '/actions', {
      actions: [{
        type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' },
        actions: [{ type: 'pointerMove', x, y, origin: 'viewport', duration: 0 }],
      }],
    });
  }

  /** Sizes the window so that its viewport is `size` (the window's own frame measured and added); a window manager
   * minimum may keep it larger, which innerWidth then shows. The window is then centred on the screen: on an X server
   * without a window manager (open()'s Xvfb) the keyboard focus goes to the window under the pointer, which stays at
   * the screen's centre, and a window sized away from it loses the focus (document.hasFocus() false, no focus events). */
  async setViewport({ width, height }) {
    await this.session.command('POST', '/window/rect', { width, height });
    const inner = await this.evaluate(() => [innerWidth, innerHeight]);
    const rect = await this.session.command('POST', '/window/rect', { width: 2 * width - inner[0], height: 2 * height - inner[1] });
    const screen = await this.evaluate(() => [globalThis.screen.width, globalThis.screen.height]);
    await this.session.command('POST', '/window/rect', {
      x: Math.max(0, Math.round((screen[0] - rect.width) / 2)), y: Math.max(0, Math.round((screen[1] - rect.height) / 2)),
    });
  }

  async close() {
    try {
      await this.session.delete();
    } finally {
      for (const child of this.children) await stop(child);
    }
  }
}

export async function open({ viewport }) {
  const browser = miniBrowser();
  const children = [];
  try {
    let display = process.env.DISPLAY;
    if (!display) {
      const xvfb = await startXvfb();
      children.push(xvfb.process);
      display = xvfb.display;
    }
    const port = await freePort();
    let log = '';
    const driver = await start(driverPath, [`--port=${port}`], { env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'pipe', 'pipe'] });
    children.unshift(driver);
    driver.stdout.on('data', (chunk) => (log += chunk));
    driver.stderr.on('data', (chunk) => (log += chunk));
    const base = `http://127.0.0.1:${port}`;
    await waitUntilReady(base).catch((error) => {
      throw new Error(`webkit: ${driverPath} did not start: ${error.message}\n${log.trim()}`);
    });
    const session = await WebDriverSession.create(base, {
      'webkitgtk:browserOptions': { binary: browser, args: ['--automation'] },
    }).catch((error) => {
      throw new Error(`webkit: ${browser} did not start: ${error.message}\n${log.trim()}`);
    });
    await session.command('POST', '/timeouts', { script: 300_000, pageLoad: 60_000 });
    const webkit = new WebKitDriver({ session, children });
    if (viewport) await webkit.setViewport(viewport);
    return webkit;
  } catch (error) {
    for (const child of children) await stop(child);
    throw error;
  }
}
