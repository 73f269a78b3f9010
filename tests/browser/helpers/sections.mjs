// The lesson page runs a section when it comes within a screen height of the viewport (web/js/main.mjs): until then
// the section says data-state="waiting" and its checks are pending. Tests that need every check computed show every
// section first, as a reader who scrolls through the page does:
//   await showEverySection(page);               // a playwright page, or a Driver of tests/browser/helpers/engines (any engine)
//   await showEverySection(page, { avoid: [] }); // the sections it may bring into view (by default all but "lab")
// Each waiting section is scrolled to just below the viewport (or just above it, where that would bring an avoided
// section into view), near enough to run, and waited for; then the page is scrolled back to the top. The section
// "lab" is avoided by default: in view, it starts its training run (tests/browser/helpers/browser.mjs's finishLab
// brings it into view). Meanwhile a screen's room is added after the page's end (and taken away after), so that a
// section that shrinks as it runs never pulls the viewport back onto one avoided.

/** In the page: shows every section that has not run, one at a time, keeping `avoid`'s sections out of view. */
async function showEach({ avoid, timeout }) {
  const settled = (s) => s.dataset.state === 'done' || s.dataset.state === 'error';
  const H = innerHeight;
  const maxScroll = () => document.documentElement.scrollHeight - H;
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top + scrollY, bottom: r.bottom + scrollY };
  };
  // in view or within SLACK px of it: the page counts edges that touch (near.mjs), and a scroll position or a box may
  // be rounded to a device pixel, so a section a pixel away from the viewport may start
  const SLACK = 16;
  const inView = (el, y) => {
    const { top, bottom } = box(el);
    return top <= y + H + SLACK && bottom >= y - SLACK;
  };
  // the animation frames drawn, so that a section that does not run says whether the browser was drawing
  let frames = 0;
  let counting = true;
  const count = () => { frames += 1; if (counting) requestAnimationFrame(count); };
  requestAnimationFrame(count);
  const frameCount = () => frames;
  const avoided = avoid.map((id) => document.getElementById(id)).filter(Boolean);
  const room = document.createElement('div');
  room.style.height = `${H}px`;
  document.body.append(room);
  try {
    for (const section of document.querySelectorAll('main > section[data-state]')) {
      if (settled(section)) continue;
      const { top, bottom } = box(section);
      const clamp = (y) => Math.min(Math.max(0, y), maxScroll());
      const y = [clamp(top - H - 1 - SLACK), clamp(bottom + 1 + SLACK)].find((at) => avoided.every((a) => !inView(a, at)));
      if (y === undefined) throw new Error(`showEverySection: #${section.id} cannot be brought near without #${avoid.join(', #')} in view`);
      window.scrollTo(0, y);
      const start = performance.now();
      const drawn = frameCount();
      while (!settled(section)) {
        if (performance.now() > start + timeout) {
          const r = section.getBoundingClientRect();
          throw new Error(`showEverySection: #${section.id} did not run within ${timeout} ms (data-state ${section.dataset.state}; ` +
            `${frameCount() - drawn} animation frames drawn meanwhile; scrolled to ${scrollY} of ${maxScroll()} for ${y}, ` +
            `the section from ${Math.round(r.top)} to ${Math.round(r.bottom)} px in a ${H} px viewport; page ${document.visibilityState})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  } finally {
    counting = false;
    window.scrollTo(0, 0);
    room.remove();
  }
  return [...document.querySelectorAll('main > section[data-state]')].filter((s) => !settled(s)).map((s) => s.id);
}

/**
 * Scrolls `target` (a playwright page or a Driver) past every section that has not run, until each has; rejects
 * when one does not run within `timeout` ms.
 */
export async function showEverySection(target, { avoid = ['lab'], timeout = 60_000 } = {}) {
  const left = await target.evaluate(showEach, { avoid, timeout });
  if (left.length) throw new Error(`showEverySection: sections still waiting: ${left.join(', ')}`);
}
