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
  // The tab the tests use is a new one, and the first is closed: under automation Firefox's first tab never has the
  // focus (document.hasFocus() false; Tab and element.focus() move document.activeElement, but no focus event
  // fires and nothing matches :focus-visible), a new tab has it as a reader's would. (focusmanager.testmode, which
  // puppeteer already sets, does not change this.)
  const first = await browser.pages();
  let page;
  try {
    page = await browser.newPage();
    for (const tab of first) await tab.close();
  } catch (error) {
    await browser.close();
    throw new Error(`firefox: could not open a tab of its own: ${error.message}`);
  }
  // the size asked, set explicitly (the first tab kept Firefox's own 1366 × 682, whatever defaultViewport said)
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
