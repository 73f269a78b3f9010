// A small client of classic WebDriver (W3C WebDriver, HTTP + JSON): the commands the WebKit driver needs, each with a
// time limit, so that a browser that stops answering fails a test instead of hanging it.
//   const session = await WebDriverSession.create('http://127.0.0.1:4444', capabilities);
//   await session.command('POST', '/url', { url });  …  await session.delete();

const KEYS = {
  ArrowLeft: '\uE012', ArrowUp: '\uE013', ArrowRight: '\uE014', ArrowDown: '\uE015', Escape: '\uE00C', Enter: '\uE007',
  Tab: '\uE004', Home: '\uE011', End: '\uE010', PageUp: '\uE00E', PageDown: '\uE00F', Space: '\uE00D',
  Shift: '\uE008', Control: '\uE009', Alt: '\uE00A', Meta: '\uE03D',
};

/** The WebDriver key value of a key name ('ArrowDown', 'Escape', or one character). */
export function keyValue(key) {
  if (KEYS[key]) return KEYS[key];
  if ([...key].length === 1) return key;
  throw new Error(`webdriver: no key named ${key}`);
}

async function request(base, method, path, body, timeout) {
  let response;
  try {
    response = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeout),
    });
  } catch (error) {
    throw new Error(`webdriver ${method} ${path}: ${error.name === 'TimeoutError' ? `no answer within ${timeout / 1000} s` : error.message}`);
  }
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    const { error, message } = json.value ?? {};
    throw Object.assign(new Error(`webdriver ${method} ${path}: ${error ?? response.status}: ${message ?? ''}`), { webdriver: { error, message } });
  }
  return json.value;
}

export class WebDriverSession {
  /** Starts a session (the browser starts with it); resolves to the session, with its capabilities. */
  static async create(base, capabilities, { timeout = 60_000 } = {}) {
    const value = await request(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } }, timeout);
    return new WebDriverSession(base, value.sessionId, value.capabilities);
  }

  constructor(base, id, capabilities) {
    Object.assign(this, { base, id, capabilities });
  }

  /** One command of this session (path relative to /session/{id}), answered within `timeout` ms. */
  command(method, path, body, { timeout = 60_000 } = {}) {
    return request(this.base, method, `/session/${this.id}${path}`, body, timeout);
  }

  delete() {
    return request(this.base, 'DELETE', `/session/${this.id}`, undefined, 30_000);
  }
}

/** Waits until the driver at `base` answers /status with ready, for at most `timeout` ms. */
export async function waitUntilReady(base, { timeout = 20_000 } = {}) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    try {
      if ((await request(base, 'GET', '/status', undefined, 2000))?.ready) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`webdriver at ${base} not ready within ${timeout / 1000} s${last ? ` (${last.message})` : ''}`);
}
