// A suite written once and run in every engine (ENGINES, tests/browser/helpers/engines/index.mjs): describe(engine) for each,
// with the site served (tests/browser/helpers/site.mjs) and a browser open for its tests.
//   eachEngine({ requires: 'bench.html', viewport, answers: { '/__x/index.html': blankPage('x') }, open: '/__x/',
//                setUp: async (s) => { … } }, (s) => {
//     test(`${s.engine}: …`, async () => { await s.browser.press('Escape'); … s.site.requests … });
//   });
// `s.site` and `s.browser` are set by the suite's before hook, which serves the site (cross-origin isolated with
// `isolated: true`) and `answers` (path → response, as site.answer takes), opens the page `open` (a path), then runs
// `setUp(s)`; its after hook closes both. After each test, an unhandled promise rejection in any page of the site the
// test loaded fails it.
import { describe, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { ENGINES, openBrowser } from './engines/index.mjs';
import { UNHANDLED_KEY, startSite } from './site.mjs';

export function eachEngine({ requires, isolated, viewport, answers = {}, open, setUp }, body) {
  for (const engine of ENGINES) {
    describe(engine, () => {
      const s = { engine, site: null, browser: null };
      before(async () => {
        s.site = await startSite({ requires, isolated });
        for (const [pathname, response] of Object.entries(answers)) s.site.answer(pathname, response);
        s.browser = await openBrowser(engine, { viewport });
        if (open !== undefined) await s.browser.goto(new URL(open, s.site.origin).href);
        await setUp?.(s);
      });
      // No test leaves an unhandled promise rejection in the site's pages (the errors script keeps them across loads).
      afterEach(async () => {
        const rejections = await s.browser?.evaluate((key) => {
          try {
            const kept = JSON.parse(sessionStorage.getItem(key) ?? '[]');
            sessionStorage.removeItem(key);
            return kept;
          } catch {
            return [];  // (a page of another origin, or none)
          }
        }, UNHANDLED_KEY).catch(() => []);
        assert.deepEqual(rejections ?? [], [], 'unhandled promise rejections in the page');
      });
      after(async () => {
        await s.browser?.close();
        await s.site?.close();
      });
      body(s);
    });
  }
}
