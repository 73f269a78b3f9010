// Debian's Firefox ESR (or $FIREFOX) driven by puppeteer-core over WebDriver BiDi, headless; puppeteer gives it a
// profile of its own (with automation's preferences) and removes it on close.
import { existsSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { PageDriver } from './page-driver.mjs';

export const executablePath = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
export const INSTALL = 'apt-get install firefox-esr, or set $FIREFOX';

export async function open({ viewport }) {
  if (!existsSync(executablePath)) throw new Error(`firefox: no browser at ${executablePath} (${INSTALL})`);
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox', protocol: 'webDriverBiDi', executablePath, headless: true, timeout: 60_000,
      defaultViewport: viewport ?? null,
    });
  } catch (error) {
    throw new Error(`firefox: ${executablePath} did not start: ${error.message}`);
  }
  const page = (await browser.pages())[0] ?? (await browser.newPage());
  // the first tab opens at Firefox's own size (1366 × 682), whatever defaultViewport says
  if (viewport) await page.setViewport(viewport);
  const version = await browser.version(); // "firefox/153.8.0"
  return new PageDriver({
    engine: 'firefox',
    version: `Firefox ${version.replace(/^firefox\//i, '')}${/esr/.test(executablePath) ? ' ESR' : ''}`,
    page,
    setViewport: (p, size) => p.setViewport(size),
    close: () => browser.close(),
  });
}
