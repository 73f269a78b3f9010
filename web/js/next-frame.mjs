// The next animation frame, or a short wait when frames do not come: a hidden tab, or a headless browser that draws
// nothing for a while, runs no requestAnimationFrame callbacks (for as long as it stays so), and the page's sections,
// which run in turn with a frame between them (main.mjs), must not wait on them.

/** How long to wait for a frame before calling back anyway, in milliseconds (a frame comes every ~16 ms when drawn). */
export const FRAME_WAIT_MS = 100;

/**
 * Calls `callback` once: at the next animation frame, or after FRAME_WAIT_MS if no frame has come by then. Returns a
 * function that cancels the call (if it has not happened yet).
 */
export function atNextFrame(callback) {
  let done = false;
  const cancel = () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
  const call = () => {
    if (done) return;
    cancel();
    callback();
  };
  const frame = requestAnimationFrame(call);
  const timer = setTimeout(call, FRAME_WAIT_MS);
  return cancel;
}

/**
 * Resolves in a task of its own, after what is queued (a message to oneself: unlike a timer, not slowed down in a
 * background tab). Where there is no MessageChannel, at once.
 */
export function nextTask() {
  if (typeof MessageChannel !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}

/**
 * Resolves in a task of its own once the next frame has been drawn (atNextFrame's callback, then nextTask, which comes
 * after that frame's paint): what was changed before it is on screen, and input that came meanwhile has been answered.
 * Work split at such points takes one frame at a time.
 */
export function afterNextFrame() {
  return new Promise((resolve) => {
    atNextFrame(() => nextTask().then(resolve));
  });
}
