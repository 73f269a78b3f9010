// The engines the cross-engine browser tests run in, and how to open one.
//   for (const engine of ENGINES) describe(engine, () => { … driver = await openBrowser(engine, { viewport }) … });
// $SEQORDER_BROWSERS (comma-separated) chooses among chromium, firefox and webkit; all three by default. An engine
// that cannot start rejects openBrowser with an Error naming what is missing and how to install it (each module
// bounds its own start: 60 s per step), so its tests fail and none hangs.

const MODULES = {
  chromium: () => import('./chromium.mjs'),
  firefox: () => import('./firefox.mjs'),
  webkit: () => import('./webkit.mjs'),
};

export const ALL_ENGINES = Object.keys(MODULES);

/** How each engine's Driver names itself (its `version`): the browser's name, then its version. */
export const VERSION_PATTERNS = { chromium: /^Chromium \d+/, firefox: /^Firefox \d+/, webkit: /^WebKitGTK \d+/ };

export const ENGINES = (process.env.SEQORDER_BROWSERS ?? ALL_ENGINES.join(','))
  .split(',').map((name) => name.trim()).filter(Boolean);
for (const name of ENGINES) {
  if (!MODULES[name]) throw new Error(`SEQORDER_BROWSERS: unknown engine ${name} (known: ${ALL_ENGINES.join(', ')})`);
}

/** Starts `engine` with one page (viewport: its size in CSS pixels); resolves to its Driver (./driver.mjs). */
export async function openBrowser(engine, { viewport = { width: 1000, height: 900 } } = {}) {
  const module = await MODULES[engine]();
  return module.open({ viewport });
}
