// Debian's Chromium (or $CHROMIUM) driven by playwright-core over the DevTools protocol, headless, with a fresh
// profile, quiet on a closed network (docs/emscripten.md, "Headless Chromium on a closed network").
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { PageDriver } from './page-driver.mjs';

export const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const INSTALL = 'apt-get install chromium, or set $CHROMIUM';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A persistent context with a profile of its own; resolves to { context, page, close() } (close removes the profile). */
export async function launchChromium({ viewport, args = [] } = {}) {
  if (!existsSync(executablePath)) throw new Error(`chromium: no browser at ${executablePath} (${INSTALL})`);
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'seqorder-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath, headless: true, args: [...CHROMIUM_ARGS, ...args], timeout: 60_000, ...(viewport ? { viewport } : {}),
    });
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw new Error(`chromium: ${executablePath} did not start: ${error.message}`);
  }
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function open({ viewport }) {
  const { context, page, close } = await launchChromium({ viewport });
  return new PageDriver({
    engine: 'chromium',
    version: `Chromium ${context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]))}`,
    page,
    setViewport: (p, size) => p.setViewportSize(size),
    close,
  });
}
