// Tells when elements come near the viewport: within `margin` viewport heights above or below it (0: in view).
// An IntersectionObserver reports it at the browser's next frame; a browser that draws no frames (a hidden tab, or a
// headless browser that has stopped drawing) reports nothing, and a browser without the observer has none, so a timer
// also looks, every LOOK_MS while some element is watched (a few rectangles read; no timer once nothing is watched).
//   const near = watchNear({ margin: 1 }, (elements) => { for (const e of elements) near.unwatch(e); … });
//   near.watch(element);   // the callback gets the watched elements that are near
//   near.stop();           // watches nothing more

/** How often the timer looks, in milliseconds. */
export const LOOK_MS = 250;

/** Is `element` within `margin` viewport heights of the viewport (edges touching count, as for the observer)? */
export function isNear(element, margin = 0) {
  const { top, bottom } = element.getBoundingClientRect();
  const reach = margin * innerHeight;
  return bottom >= -reach && top <= innerHeight + reach;
}

export function watchNear({ margin = 0 } = {}, callback) {
  const watched = new Set();
  let timer = 0;
  const report = (elements) => {
    const list = elements.filter((e) => watched.has(e));
    if (list.length) callback(list);
  };
  const look = () => report([...watched].filter((e) => isNear(e, margin)));
  const observer = typeof IntersectionObserver === 'function'
    ? new IntersectionObserver((entries) => report(entries.filter((e) => e.isIntersecting).map((e) => e.target)),
      { rootMargin: `${margin * 100}% 0px ${margin * 100}% 0px` })
    : null;
  const idle = () => {
    if (watched.size === 0 && timer) {
      clearInterval(timer);
      timer = 0;
    }
  };
  return {
    watch(element) {
      watched.add(element);
      observer?.observe(element);
      if (!timer) timer = setInterval(look, LOOK_MS);
    },
    unwatch(element) {
      watched.delete(element);
      observer?.unobserve(element);
      idle();
    },
    stop() {
      watched.clear();
      observer?.disconnect();
      idle();
    },
  };
}
